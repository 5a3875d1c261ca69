// One library function wrapped at link time (-Wl,--wrap=MANGLED): its __real_ symbol (the
// library's) and a __wrap_ one that records the call by NAME, then calls the real one.
// The test defines record_call.
#pragma once

void record_call(const char* name);

#define JOBSPEC_WRAP(MANGLED, NAME, RET, PARAMS, ARGS)                                             \
    RET real_##NAME PARAMS __asm__("__real_" MANGLED);                                             \
    RET wrap_##NAME PARAMS __asm__("__wrap_" MANGLED);                                             \
    RET wrap_##NAME PARAMS {                                                                       \
        record_call(#NAME);                                                                        \
        return real_##NAME ARGS;                                                                   \
    }
