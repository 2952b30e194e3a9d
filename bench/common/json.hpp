// Minimal JSON writer for the one-line-per-measurement records the driver reads.
// Only what the records need: flat objects of numbers, strings, booleans, nested
// objects and number arrays, serialised in insertion order.
#pragma once

#include <charconv>
#include <cmath>
#include <concepts>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace loom_bench {

// Shortest text that reads back as the same double; JSON has no inf/nan, so null.
inline std::string json_number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[32];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, res.ptr);
}

template <std::integral T>
  requires(!std::same_as<T, bool>)
std::string json_number(T v) {
  char buf[24];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, res.ptr);
}

inline std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          static const char hex[] = "0123456789abcdef";
          out += "\\u00";
          out += hex[(c >> 4) & 0xf];
          out += hex[c & 0xf];
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

inline std::string json_array(const std::vector<double>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) out += ",";
    out += json_number(values[i]);
  }
  return out + "]";
}

// An object whose members keep their insertion order; setting a key again
// replaces its value in place (a parameter resolved after parsing, say).
class JsonObject {
 public:
  JsonObject& set(std::string_view key, double v) { return raw(key, json_number(v)); }
  template <std::integral T>
    requires(!std::same_as<T, bool>)
  JsonObject& set(std::string_view key, T v) {
    return raw(key, json_number(v));
  }
  JsonObject& set(std::string_view key, bool v) { return raw(key, v ? "true" : "false"); }
  JsonObject& set(std::string_view key, std::string_view v) { return raw(key, json_string(v)); }
  JsonObject& set(std::string_view key, const char* v) { return raw(key, json_string(v)); }
  JsonObject& set(std::string_view key, const std::vector<double>& v) {
    return raw(key, json_array(v));
  }
  JsonObject& set(std::string_view key, const JsonObject& v) { return raw(key, v.str()); }

  [[nodiscard]] bool empty() const { return members_.empty(); }

  [[nodiscard]] std::string str() const {
    std::string out = "{";
    for (std::size_t i = 0; i < members_.size(); ++i) {
      if (i) out += ",";
      out += json_string(members_[i].first) + ":" + members_[i].second;
    }
    return out + "}";
  }

 private:
  JsonObject& raw(std::string_view key, std::string text) {
    for (auto& [k, v] : members_) {
      if (k == key) {
        v = std::move(text);
        return *this;
      }
    }
    members_.emplace_back(std::string(key), std::move(text));
    return *this;
  }

  std::vector<std::pair<std::string, std::string>> members_;
};

}  // namespace loom_bench
