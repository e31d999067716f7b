#pragma once
// The one header users include: everything reachable from here is public API.
//
//   #include "aten/ATen.h"
//   at::Tensor t = at::zeros({2, 3}, at::kFloat);
//   t.fill_(2);
//   std::cout << t << "\n";

// The order matters (generated methods after the class, autograd last): not sorted.
// clang-format off
#include "aten/CPUGeneratorImpl.h"
#include "aten/Context.h"
#include "aten/ManualSeed.h"
#include "aten/OperatorPointers.h"
#include "aten/TensorConstruction.h"
#include "aten/TensorIndexing.h"
#include "aten/TensorMaker.h"
#include "aten/TensorOptionsUtils.h"
#include "aten/core/Formatting.h"
#include "aten/core/Reduction.h"
#include "aten/core/DeprecatedTypeProperties.h"
#include "aten/core/Tensor.h"
#include "aten/core/TensorAccessor.h"
#include "aten/detail/EmptyTensor.h"
#include "aten/generated/Functions.h"
#include "aten/generated/Operators.h"
#include "aten/generated/TensorMethods.h"
#include "aten/core/TensorMethodsManual.h"
#include "aten/TensorOperators.h"
#include "c10/core/AutoDispatchGuards.h"
#include "c10/core/Backend.h"
#include "c10/core/Device.h"
#include "c10/core/Layout.h"
#include "c10/core/MemoryFormat.h"
#include "c10/core/Scalar.h"
#include "c10/core/ScalarType.h"
#include "c10/core/TensorOptions.h"
#include "c10/util/ArrayRef.h"
#include "c10/util/Exception.h"
#include "dispatcher/Dispatcher.h"
#include "aten/autograd/autograd.h"  // last: it builds on everything above
// clang-format on
