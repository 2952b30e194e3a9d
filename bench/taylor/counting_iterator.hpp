// A random-access iterator over the integers first, first + 1, ...: the index range
// of std::transform_reduce without an array of indices. Its category is the C++17
// random_access_iterator_tag, which the parallel algorithms need to split the range.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>

namespace taylor_bench {

class counting_iterator {
public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = std::uint64_t;
    using difference_type = std::ptrdiff_t;
    using pointer = const std::uint64_t*;
    using reference = std::uint64_t;  // a value: there is no element to refer to

    counting_iterator() = default;
    explicit counting_iterator(std::uint64_t v) : v_(v) {}

    reference operator*() const { return v_; }
    reference operator[](difference_type d) const { return v_ + static_cast<std::uint64_t>(d); }
    counting_iterator& operator++() { ++v_; return *this; }
    counting_iterator operator++(int) { auto t = *this; ++v_; return t; }
    counting_iterator& operator--() { --v_; return *this; }
    counting_iterator operator--(int) { auto t = *this; --v_; return t; }
    counting_iterator& operator+=(difference_type d) { v_ += static_cast<std::uint64_t>(d); return *this; }
    counting_iterator& operator-=(difference_type d) { v_ -= static_cast<std::uint64_t>(d); return *this; }
    friend counting_iterator operator+(counting_iterator i, difference_type d) { return i += d; }
    friend counting_iterator operator+(difference_type d, counting_iterator i) { return i += d; }
    friend counting_iterator operator-(counting_iterator i, difference_type d) { return i -= d; }
    friend difference_type operator-(counting_iterator a, counting_iterator b) {
        return static_cast<difference_type>(a.v_ - b.v_);
    }
    friend bool operator==(counting_iterator a, counting_iterator b) { return a.v_ == b.v_; }
    friend auto operator<=>(counting_iterator a, counting_iterator b) { return a.v_ <=> b.v_; }

private:
    std::uint64_t v_ = 0;
};

}  // namespace taylor_bench
