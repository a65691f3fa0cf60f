//===- ToolFiles.cpp - The input and output of a command-line tool --------===//

#include "remat/Support/ToolFiles.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace remat;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

std::optional<ToolFiles> remat::openToolFiles(llvm::StringRef input,
                                              llvm::StringRef output,
                                              std::optional<llvm::Align>
                                                  alignment) {
  ToolFiles files;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFileOrSTDIN(input, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/true,
                                         alignment);
  if (!buffer) {
    llvm::errs() << "cannot open input file '" << input
                 << "': " << buffer.getError().message() << "\n";
    return std::nullopt;
  }
  files.input = std::move(*buffer);
  if (llvm::Error error = OutputFiles::get().claim(output, "the output file")) {
    llvm::errs() << llvm::toString(std::move(error)) << "\n";
    return std::nullopt;
  }
  std::error_code error;
  files.output = std::make_unique<llvm::ToolOutputFile>(
      output, error, llvm::sys::fs::OF_None);
  if (error) {
    llvm::errs() << "cannot open output file '" << output
                 << "': " << error.message() << "\n";
    return std::nullopt;
  }
  return files;
}

OutputFiles &OutputFiles::get() {
  static OutputFiles files;
  return files;
}

OutputFiles::~OutputFiles() { discard(); }

llvm::Error OutputFiles::claim(llvm::StringRef pathName, llvm::StringRef what) {
  auto fail = [&](const llvm::Twine &why) {
    return llvm::createStringError("cannot write " + what + " to '" +
                                   pathName + "': " + why);
  };
  Claim claim{pathName.str(), what.str(), "-", std::nullopt};
  if (pathName != "-") {
    llvm::SmallString<256> absolute(pathName);
    if (std::error_code error = fs::make_absolute(absolute))
      return fail(error.message());
    path::remove_dots(absolute, /*remove_dot_dot=*/true);
    llvm::StringRef directory = path::parent_path(absolute);
    fs::file_status status;
    bool exists = !fs::status(absolute, status);
    if (exists && status.type() == fs::file_type::directory_file)
      return fail("it is a directory");
    // A device such as /dev/null takes any number of writers (by its name
    // too, whatever it is now); stage() writes into it, never over it.
    if ((exists && status.type() != fs::file_type::regular_file) ||
        absolute == "/dev/null")
      return llvm::Error::success();
    if (!fs::is_directory(directory))
      return fail("the directory '" + directory + "' does not exist");
    if (fs::access(directory, fs::AccessMode::Write))
      return fail("the directory '" + directory + "' is not writable");
    llvm::SmallString<256> real;
    if (fs::real_path(directory, real))
      real = directory;
    path::append(real, path::filename(absolute));
    claim.key = real.str().str();
    fs::UniqueID id;
    if (!fs::getUniqueID(claim.key, id))
      claim.id = id;
  }
  std::lock_guard<std::mutex> lock(mutex);
  for (const Claim &other : claims)
    if (other.key == claim.key || (other.id && other.id == claim.id))
      return llvm::createStringError(
          "cannot write " + what + " to '" + pathName + "': " + other.what +
          " is written there too" +
          (other.path == claim.path ? llvm::Twine("")
                                    : " (as '" + other.path + "')") +
          "; give each output a file of its own");
  claims.push_back(std::move(claim));
  return llvm::Error::success();
}

void OutputFiles::release(llvm::StringRef pathName) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = llvm::find_if(
      claims, [&](const Claim &claim) { return claim.path == pathName; });
  if (it != claims.end())
    claims.erase(it);
}

llvm::Error OutputFiles::stage(llvm::StringRef pathName,
                               llvm::StringRef contents) {
  Staged entry;
  entry.path = pathName.str();
  fs::file_status status;
  bool special = !fs::status(pathName, status) &&
                 status.type() != fs::file_type::regular_file;
  if (pathName == "-" || special) {
    entry.contents = contents.str();
  } else {
    llvm::Expected<fs::TempFile> file =
        fs::TempFile::create(pathName + "-%%%%%%.tmp");
    if (!file)
      return llvm::createStringError("cannot write '" + pathName + "': " +
                                     llvm::toString(file.takeError()));
    {
      llvm::raw_fd_ostream os(file->FD, /*shouldClose=*/false);
      os << contents;
      os.flush();
      if (os.has_error()) {
        std::string message = os.error().message();
        os.clear_error();
        llvm::consumeError(file->discard());
        return llvm::createStringError("cannot write '" + pathName +
                                       "': " + message);
      }
    }
    entry.file = std::move(*file);
  }
  std::lock_guard<std::mutex> lock(mutex);
  for (Staged &other : staged)
    if (other.path == entry.path) {
      if (other.file)
        llvm::consumeError(other.file->discard());
      other = std::move(entry);
      return llvm::Error::success();
    }
  staged.push_back(std::move(entry));
  return llvm::Error::success();
}

void OutputFiles::hold() {
  std::lock_guard<std::mutex> lock(mutex);
  held = true;
}

bool OutputFiles::isHeld() const {
  std::lock_guard<std::mutex> lock(mutex);
  return held;
}

llvm::Error OutputFiles::commit() {
  std::vector<Staged> entries;
  {
    std::lock_guard<std::mutex> lock(mutex);
    entries = std::move(staged);
    staged.clear();
  }
  llvm::Error result = llvm::Error::success();
  for (Staged &entry : entries) {
    if (result) {
      if (entry.file)
        llvm::consumeError(entry.file->discard());
      continue;
    }
    if (!entry.file && entry.path == "-") {
      llvm::outs() << entry.contents;
      llvm::outs().flush();
      continue;
    }
    if (!entry.file) {
      std::error_code error;
      llvm::raw_fd_ostream os(entry.path, error);
      if (!error) {
        os << entry.contents;
        os.flush();
        error = os.error();
        os.clear_error();
      }
      if (error)
        result = llvm::createStringError("cannot write '" + entry.path +
                                         "': " + error.message());
      continue;
    }
    if (llvm::Error error = entry.file->keep(entry.path))
      result = llvm::createStringError("cannot write '" + entry.path + "': " +
                                       llvm::toString(std::move(error)));
  }
  return result;
}

void OutputFiles::discard() {
  std::vector<Staged> entries;
  {
    std::lock_guard<std::mutex> lock(mutex);
    entries = std::move(staged);
    staged.clear();
  }
  for (Staged &entry : entries)
    if (entry.file)
      llvm::consumeError(entry.file->discard());
}

OutputClaims::~OutputClaims() {
  for (const std::string &path : paths)
    OutputFiles::get().release(path);
}

llvm::Error OutputClaims::claim(llvm::StringRef path, llvm::StringRef what) {
  if (path.empty())
    return llvm::Error::success();
  if (llvm::Error error = OutputFiles::get().claim(path, what))
    return error;
  paths.push_back(path.str());
  return llvm::Error::success();
}
