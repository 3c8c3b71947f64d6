#pragma once
// An operator, above storage/.
