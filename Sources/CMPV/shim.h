#ifndef PLAYTRACE_CMPV_SHIM_H
#define PLAYTRACE_CMPV_SHIM_H
#include <mpv/client.h>
#endif
