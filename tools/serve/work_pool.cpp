#include "work_pool.hpp"

#include <algorithm>

namespace jobspec::serve {

WorkPool::WorkPool(std::size_t threads, std::size_t queue)
    : capacity_(std::max<std::size_t>(threads, 1) + queue) {
    for (std::size_t i = 0; i < std::max<std::size_t>(threads, 1); ++i)
        threads_.emplace_back([this] { work(); });
}

WorkPool::~WorkPool() {
    stop();
}

bool WorkPool::try_submit(std::function<void()> task) {
    {
        const std::lock_guard lock(mutex_);
        if (stopping_ || busy_ + waiting_.size() >= capacity_)
            return false;
        waiting_.push_back(std::move(task));
    }
    wake_.notify_one();
    return true;
}

void WorkPool::stop() {
    {
        const std::lock_guard lock(mutex_);
        if (stopping_ && threads_.empty())
            return;
        stopping_ = true;
        waiting_.clear();
    }
    wake_.notify_all();
    for (auto& t : threads_)
        t.join();
    threads_.clear();
}

void WorkPool::work() {
    for (;;) {
        std::function<void()> task;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [this] { return stopping_ || !waiting_.empty(); });
            if (stopping_)
                return;
            task = std::move(waiting_.front());
            waiting_.pop_front();
            ++busy_;
        }
        task();
        const std::lock_guard lock(mutex_);
        --busy_;
    }
}

} // namespace jobspec::serve
