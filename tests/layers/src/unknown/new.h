#pragma once
// A folder the layers do not know.
