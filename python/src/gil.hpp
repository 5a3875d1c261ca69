// Running C++ work with the GIL released.
#pragma once

#include <chrono>

#include <pybind11/pybind11.h>

namespace jobspec::python {

/// Releases the GIL for its lifetime. Taking it back, it first waits up to 10 µs in user
/// space while another thread holds the GIL, and only then blocks in CPython. When two
/// threads call jobspec at once, one often finishes its C++ work while the other holds the
/// GIL for its microsecond of Python; blocking at once puts the thread to sleep, and on a
/// virtual machine waking it costs more than that microsecond (docs/PERFORMANCE.md, Python).
/// Only CPython 3.11 lets an extension see that the GIL is held (there
/// _PyThreadState_UncheckedGet() is the holder's thread state); on others this blocks at
/// once, as pybind11's gil_scoped_release does.
class GilRelease {
public:
    GilRelease() : state_(PyEval_SaveThread()) {}
    GilRelease(const GilRelease&) = delete;
    GilRelease& operator=(const GilRelease&) = delete;
    ~GilRelease() {
        wait_while_held();
        PyEval_RestoreThread(state_);
    }

private:
    static void wait_while_held() {
#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000
        if (_PyThreadState_UncheckedGet() == nullptr)
            return;
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::microseconds(10);
        do {
            for (int i = 0; i < 16; ++i)
                pause();
        } while (_PyThreadState_UncheckedGet() != nullptr &&
                 std::chrono::steady_clock::now() < deadline);
#endif
    }

    static void pause() {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#elif defined(__aarch64__)
        asm volatile("yield");
#endif
    }

    PyThreadState* state_;
};

/// Runs `work` (C++ only, no Python objects) with the GIL released.
template <class Work>
auto without_gil(Work&& work) {
    GilRelease release;
    return work();
}

} // namespace jobspec::python
