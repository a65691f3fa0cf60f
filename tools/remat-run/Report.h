//===- Report.h - What a run of the step printed and wrote ------*- C++ -*-===//
//
// Report phase: a digest of every result, the .npy files of --output-dir,
// and the text or JSON report of the measured memory and time.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_TOOLS_REMATRUN_REPORT_H
#define REMAT_TOOLS_REMATRUN_REPORT_H

#include "RunOptions.h"
#include "Runner.h"
#include "Step.h"

namespace remat::run {

llvm::Error report(const Step &step, const Measurement &measurement,
                   const RunOptions &options);

} // namespace remat::run

#endif // REMAT_TOOLS_REMATRUN_REPORT_H
