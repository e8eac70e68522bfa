// The module's functions are inline in its header; SwiftPM needs one source file per C target.
#include "CCourierZlib.h"
