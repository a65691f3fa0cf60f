/* Replays an allocation trace with glibc malloc/free and prints the high
 * water of the heap's footprint: the sbrk arena plus mmapped chunks, from
 * mallinfo2 after every allocation, minus the footprint before the first
 * one (this program's own stdio buffer and table). The heap grows only by
 * what it needs (M_TOP_PAD 0), so glibc's default 128 KiB of padding does
 * not hide small steps; everything else is glibc's default. Used by
 * bench/arena.py.
 *
 * stdin: one event a line, "a ID BYTES" (allocate) or "f ID" (free); IDs
 * are 0..N-1. stdout: the high water in bytes. The footprint is what
 * malloc reserved (heap size and mmapped chunks), touched or not, so the
 * blocks are not written: large steps replay without taking their memory.
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  mallopt(M_TOP_PAD, 0);
  size_t capacity = 1024, highWater = 0, before = 0;
  int started = 0;
  char **blocks = calloc(capacity, sizeof(char *));
  char kind;
  size_t id, bytes;
  while (scanf(" %c %zu", &kind, &id) == 2) {
    while (id >= capacity) {
      blocks = realloc(blocks, 2 * capacity * sizeof(char *));
      for (size_t i = capacity; i < 2 * capacity; ++i)
        blocks[i] = NULL;
      capacity *= 2;
    }
    if (!started) {
      struct mallinfo2 info = mallinfo2();
      before = info.arena + info.hblkhd;
      started = 1;
    }
    if (kind == 'a') {
      if (scanf("%zu", &bytes) != 1)
        return 1;
      blocks[id] = malloc(bytes);
      if (!blocks[id])
        return 1;
      struct mallinfo2 info = mallinfo2();
      size_t footprint = info.arena + info.hblkhd;
      if (footprint > highWater)
        highWater = footprint;
    } else {
      free(blocks[id]);
      blocks[id] = NULL;
    }
  }
  printf("%zu\n", highWater > before ? highWater - before : 0);
  return 0;
}
