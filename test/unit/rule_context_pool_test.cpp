// RuleContextPool: the per-thread memory of the generated parsers' rule contexts.
#include <doctest/doctest.h>

#include <cstddef>
#include <vector>

#include <rule_context_pool.hpp>

TEST_CASE("rule context pool - reuses blocks, keeps a bounded number") {
    jobspec::grammar::RuleContextPool pool;
    void* a = pool.take(200);
    void* b = pool.take(200);
    CHECK(a != b);
    pool.give(a, 200);
    CHECK(pool.take(193) == a); // the same size class: 193 to 208 bytes
    pool.give(a, 200);
    void* other = pool.take(100);
    CHECK(other != a); // another class
    pool.give(other, 100);
    CHECK(pool.take(200) == a);
    CHECK(pool.free_blocks(200) == 0);
    // Past its bound a class returns blocks to the heap.
    std::vector<void*> blocks;
    for (int i = 0; i < 1000; ++i)
        blocks.push_back(pool.take(64));
    for (void* block : blocks)
        pool.give(block, 64);
    CHECK(pool.free_blocks(64) == 256);
    for (int i = 0; i < 300; ++i)
        blocks[static_cast<std::size_t>(i)] = pool.take(64);
    CHECK(pool.free_blocks(64) == 0);
    for (int i = 0; i < 300; ++i)
        pool.give(blocks[static_cast<std::size_t>(i)], 64);
    // Larger than any class: straight to and from the heap.
    void* big = pool.take(1 << 16);
    pool.give(big, 1 << 16);
    CHECK(pool.free_blocks(1 << 16) == 0);
    pool.give(a, 200);
    pool.give(b, 200);
    CHECK(pool.free_blocks(200) == 2);
}
