remat.graph @reordering_plans_worse() -> tensor<200xi8> {
  %0 = remat.abstract "0" flops(0) () : () -> tensor<3000xi8>
  %1 = remat.abstract "2" flops(552) (%0) : (tensor<3000xi8>) -> tensor<940xi8>
  %2 = remat.abstract "3" flops(903) (%0) : (tensor<3000xi8>) -> tensor<400xi8>
  %3 = remat.abstract "4" flops(112) (%1, %2) : (tensor<940xi8>, tensor<400xi8>) -> tensor<2380xi8>
  %4 = remat.abstract "5" flops(648) (%1, %2) : (tensor<940xi8>, tensor<400xi8>) -> tensor<1440xi8>
  %5 = remat.abstract "7" flops(663) (%4) : (tensor<1440xi8>) -> tensor<2450xi8>
  %6 = remat.abstract "6" flops(799) (%3) : (tensor<2380xi8>) -> tensor<250xi8>
  %7 = remat.abstract "8" flops(393) (%6, %5) : (tensor<250xi8>, tensor<2450xi8>) -> tensor<760xi8>
  %8 = remat.abstract "1" flops(0) (%7) : (tensor<760xi8>) -> tensor<200xi8>
  remat.return %8 : tensor<200xi8>
}
