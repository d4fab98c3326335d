// The one translation unit that compiles toml++'s implementation (TOML_HEADER_ONLY=0 elsewhere).
#define TOML_IMPLEMENTATION
#include "kb/tomlpp.h"
