remat.graph @reordering_plans_better() -> tensor<290xi8> {
  %0 = remat.abstract "0" flops(0) () : () -> tensor<2610xi8>
  %1 = remat.abstract "2" flops(540) (%0) : (tensor<2610xi8>) -> tensor<6500xi8>
  %2 = remat.abstract "3" flops(482) (%0) : (tensor<2610xi8>) -> tensor<10xi8>
  %3 = remat.abstract "4" flops(694) (%1, %2) : (tensor<6500xi8>, tensor<10xi8>) -> tensor<4700xi8>
  %4 = remat.abstract "5" flops(899) (%3) : (tensor<4700xi8>) -> tensor<2920xi8>
  %5 = remat.abstract "6" flops(219) (%3) : (tensor<4700xi8>) -> tensor<2580xi8>
  %6 = remat.abstract "7" flops(10) (%1, %3) : (tensor<6500xi8>, tensor<4700xi8>) -> tensor<30xi8>
  %7 = remat.abstract "1" flops(0) (%4, %5, %6) : (tensor<2920xi8>, tensor<2580xi8>, tensor<30xi8>) -> tensor<290xi8>
  remat.return %7 : tensor<290xi8>
}
