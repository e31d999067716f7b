#pragma once
#include "c10/core/StorageImpl.h"
