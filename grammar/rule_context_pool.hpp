// Memory for the generated parsers' rule contexts, recycled per thread (generate.py puts
// JOBSPEC_POOLED_RULE_CONTEXT into every context class).
#pragma once

#include <cstddef>
#include <new>

namespace jobspec::grammar {

/// A parse makes one rule context per rule invocation and frees them all when its parser
/// is reset: more blocks of one size than glibc's per-thread cache keeps, so most went
/// back to the heap's slower lists. This keeps up to `kept` free blocks of each size class
/// for the calling thread; beyond that, and above `classes` × `granule` bytes, blocks come
/// from and go back to the heap. A parser's contexts must be freed on the thread that
/// made them (run_parser's parsers are per thread).
class RuleContextPool {
public:
    static RuleContextPool& of_this_thread() noexcept {
        thread_local RuleContextPool pool;
        return pool;
    }

    RuleContextPool() = default;
    RuleContextPool(const RuleContextPool&) = delete;
    RuleContextPool& operator=(const RuleContextPool&) = delete;
    ~RuleContextPool() {
        for (List& list : lists_)
            while (list.head != nullptr) {
                Block* block = list.head;
                list.head = block->next;
                ::operator delete(block);
            }
    }

    void* take(std::size_t size) {
        const std::size_t c = size_class(size);
        if (c >= classes)
            return ::operator new(size);
        List& list = lists_[c];
        if (list.head == nullptr)
            return ::operator new((c + 1) * granule);
        Block* block = list.head;
        list.head = block->next;
        --list.count;
        return block;
    }

    void give(void* memory, std::size_t size) noexcept {
        const std::size_t c = size_class(size);
        if (c >= classes || lists_[c].count == kept) {
            ::operator delete(memory);
            return;
        }
        auto* block = static_cast<Block*>(memory);
        block->next = lists_[c].head;
        lists_[c].head = block;
        ++lists_[c].count;
    }

    /// How many free blocks the size class of `size` keeps now (none above the classes).
    std::size_t free_blocks(std::size_t size) const noexcept {
        const std::size_t c = size_class(size);
        return c < classes ? lists_[c].count : 0;
    }

private:
    struct Block {
        Block* next;
    };
    struct List {
        Block* head = nullptr;
        std::size_t count = 0;
    };
    static constexpr std::size_t granule = 16, classes = 48, kept = 256;
    static constexpr std::size_t size_class(std::size_t size) noexcept {
        return size == 0 ? 0 : (size - 1) / granule;
    }

    List lists_[classes];
};

} // namespace jobspec::grammar

#if defined(__SANITIZE_ADDRESS__)
#define JOBSPEC_RULE_CONTEXT_POOL 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define JOBSPEC_RULE_CONTEXT_POOL 0
#endif
#endif
#ifndef JOBSPEC_RULE_CONTEXT_POOL
#define JOBSPEC_RULE_CONTEXT_POOL 1
#endif

#if JOBSPEC_RULE_CONTEXT_POOL
/// A rule context's allocation, from the thread's pool.
#define JOBSPEC_POOLED_RULE_CONTEXT                                                                \
    static void* operator new(std::size_t size) {                                                  \
        return ::jobspec::grammar::RuleContextPool::of_this_thread().take(size);                   \
    }                                                                                              \
    static void operator delete(void* memory, std::size_t size) noexcept {                         \
        ::jobspec::grammar::RuleContextPool::of_this_thread().give(memory, size);                  \
    }
#else
/// Under AddressSanitizer contexts come from the heap, so that it sees their reuse.
#define JOBSPEC_POOLED_RULE_CONTEXT
#endif
