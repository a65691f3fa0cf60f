//===- GradientRules.cpp - The table of derivative rules ------------------===//

#include "remat/Autodiff/GradientRules.h"

using namespace remat;

const GradientRules &GradientRules::get() {
  static const GradientRules rules = [] {
    GradientRules r;
    addTosaGradients(r);
    addTosaWindowGradients(r);
    addArithMathGradients(r);
    addLinalgGradients(r);
    return r;
  }();
  return rules;
}
