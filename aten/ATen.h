#pragma once
// The one header users include: everything reachable from here is public API.

#include "aten/core/Tensor.h"
#include "aten/detail/EmptyTensor.h"
#include "c10/core/Device.h"
#include "c10/core/Layout.h"
#include "c10/core/MemoryFormat.h"
#include "c10/core/Scalar.h"
#include "c10/core/ScalarType.h"
#include "c10/core/TensorOptions.h"
#include "c10/util/ArrayRef.h"
#include "c10/util/Exception.h"
