// Sizes in configuration values (LOOM_STACKSIZE, OMP_STACKSIZE, GOMP_STACKSIZE,
// KMP_STACKSIZE, OMP_ALLOCATOR traits), one parser for every layer.
#pragma once

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace loom::ext {

/// Parses "<digits>[ ]<unit>": unit B, K, M, G or T (case-insensitive, powers of 1024,
/// a trailing B allowed after K/M/G/T as in "16KB"), `default_unit` when none is
/// given (OpenMP: K for OMP_STACKSIZE; loom's variables: B). Surrounding blanks are
/// ignored. Null for anything else, or a value that does not fit std::size_t.
inline std::optional<std::size_t> parse_size(std::string_view text, char default_unit) {
    auto blank = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
    while (!text.empty() && blank(text.front())) text.remove_prefix(1);
    while (!text.empty() && blank(text.back())) text.remove_suffix(1);
    std::size_t i = 0;
    std::uint64_t value = 0;
    for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
        const auto digit = static_cast<std::uint64_t>(text[i] - '0');
        if (value > (UINT64_MAX - digit) / 10) return std::nullopt;
        value = value * 10 + digit;
    }
    if (i == 0) return std::nullopt;
    std::string_view unit = text.substr(i);
    while (!unit.empty() && blank(unit.front())) unit.remove_prefix(1);
    const auto up = [](char c) {
        return static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    };
    const char u = unit.empty() ? up(default_unit) : up(unit[0]);
    if (unit.size() > 2 || (unit.size() == 2 && (u == 'B' || up(unit[1]) != 'B')))
        return std::nullopt;
    int shift = 0;
    switch (u) {
        case 'B': shift = 0; break;
        case 'K': shift = 10; break;
        case 'M': shift = 20; break;
        case 'G': shift = 30; break;
        case 'T': shift = 40; break;
        default: return std::nullopt;
    }
    if (value > (static_cast<std::uint64_t>(SIZE_MAX) >> shift)) return std::nullopt;
    return static_cast<std::size_t>(value << shift);
}

}  // namespace loom::ext
