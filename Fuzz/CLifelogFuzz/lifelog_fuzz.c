/* Only the header matters: it declares libFuzzer's driver for Swift (see lifelog_fuzz.h). */
#include "lifelog_fuzz.h"
