#pragma once
// Runs up the layers: storage/ may not include execution/.
#include "execution/operator.h"
