// A fixed set of threads running submitted work, with a bound on work waiting for them.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace jobspec::serve {

class WorkPool {
public:
    /// `threads` workers (at least one); at most `queue` tasks wait while all are busy.
    WorkPool(std::size_t threads, std::size_t queue);
    /// Same as stop().
    ~WorkPool();
    WorkPool(const WorkPool&) = delete;
    WorkPool& operator=(const WorkPool&) = delete;

    /// Runs `task` on a worker. False, and `task` dropped, when every worker is busy and
    /// the queue is full, or after stop().
    bool try_submit(std::function<void()> task);
    /// Drops the tasks still waiting, lets the running ones finish, joins the workers.
    void stop();

private:
    void work();

    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::function<void()>> waiting_;
    std::size_t busy_ = 0;
    std::size_t capacity_;
    bool stopping_ = false;
    std::vector<std::thread> threads_;
};

} // namespace jobspec::serve
