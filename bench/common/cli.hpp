// Command line of every benchmark binary: `--key value` pairs, declared by the
// program as it reads them, so --help lists exactly what the program understands.
//
// A token starting with "--" is a key; the token after it is its value unless that
// one is a key too (then the key is a bare flag). Bad input ends the program with
// exit code 2 and one line on stderr naming the option, the value and what was
// expected: the driver shows that line in its failure report.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "json.hpp"

namespace loom_bench {

class Cli {
 public:
  Cli(int argc, char** argv, std::string bench, std::string summary)
      : bench_(std::move(bench)), summary_(std::move(summary)) {
    prog_ = argc > 0 ? argv[0] : bench_;
    for (int i = 1; i < argc; ++i) take_token(argc, argv, i);
  }

  [[nodiscard]] const std::string& bench() const { return bench_; }

  // An integer option. "1e6" is accepted when it names an integer exactly.
  // `param`: whether the value belongs in the record's "params" (a measurement
  // parameter) or only steers the run (repetitions, threads).
  long long integer(std::string_view key, long long def, long long lo, long long hi,
                    std::string_view help, bool param = true) {
    describe(key, json_number(def), help);
    if (help_) return def;
    long long v = def;
    if (const std::string* text = value_of(key)) v = parse_integer(key, *text);
    if (v < lo || v > hi) {
      fail(key, json_number(v),
           "a value in [" + json_number(lo) + ", " + json_number(hi) + "]");
    }
    if (param) params_.set(key, v);
    return v;
  }

  double real(std::string_view key, double def, double lo, double hi, std::string_view help) {
    describe(key, json_number(def), help);
    if (help_) return def;
    double v = def;
    if (const std::string* text = value_of(key)) v = parse_real(key, *text);
    if (!(v >= lo && v <= hi)) {
      fail(key, json_number(v),
           "a value in [" + json_number(lo) + ", " + json_number(hi) + "]");
    }
    params_.set(key, v);
    return v;
  }

  std::string choice(std::string_view key, std::string def,
                     const std::vector<std::string>& allowed, std::string_view help) {
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : "|") + a;
    describe(key, def + " (" + list + ")", help);
    if (help_) return def;
    std::string v = def;
    if (const std::string* text = value_of(key)) v = *text;
    bool ok = false;
    for (const auto& a : allowed) ok = ok || a == v;
    if (!ok) fail(key, v, "one of " + list);
    params_.set(key, v);
    return v;
  }

  // A free-form string option that is not a measurement parameter (e.g. --system).
  std::string text(std::string_view key, std::string def, std::string_view help) {
    describe(key, def, help);
    if (help_) return def;
    const std::string* text = value_of(key);
    if (text && text->empty()) fail(key, "", "a non-empty value");
    return text ? *text : def;
  }

  // A boolean: `--key`, or `--key 0|1|true|false|yes|no|on|off`.
  bool flag(std::string_view key, std::string_view help) {
    describe(key, "off", help);
    if (help_) return false;
    bool v = false;
    if (const std::string* text = value_of(key, /*may_be_empty=*/true)) {
      if (text->empty() || *text == "1" || *text == "true" || *text == "yes" || *text == "on") {
        v = true;
      } else if (*text != "0" && *text != "false" && *text != "no" && *text != "off") {
        fail(key, *text, "nothing, or one of 0|1|true|false|yes|no|on|off");
      }
    }
    params_.set(key, v);
    return v;
  }

  // Records a parameter whose value is only known after parsing (a default that
  // depends on the thread count, say), so the printed record says what really ran.
  void set_param(std::string_view key, long long v) { params_.set(key, v); }

  [[nodiscard]] const JsonObject& params() const { return params_; }

  // Called once every option is declared: answers --help, rejects unknown keys.
  void finish() const {
    if (help_) {
      std::printf("%s: %s\n\noptions:\n%s", prog_.c_str(), summary_.c_str(), help_text_.c_str());
      std::exit(0);
    }
    for (const auto& [key, value] : given_) {
      if (!used_.contains(key)) {
        fail_line("unknown option --" + key + "; known options:" + known_keys_);
      }
    }
  }

  // Ends the program for an invalid combination found after parsing.
  [[noreturn]] void fail(std::string_view key, std::string_view value,
                         std::string_view expected) const {
    fail_line("--" + std::string(key) + " '" + std::string(value) + "': expected " +
              std::string(expected));
  }

 private:
  void take_token(int argc, char** argv, int& i) {
    std::string_view tok = argv[i];
    if (tok == "--help" || tok == "-h") {
      help_ = true;
      return;
    }
    if (tok.size() < 3 || tok.substr(0, 2) != "--") {
      fail_line("unexpected argument '" + std::string(tok) + "' (options are --key value)");
    }
    std::string key(tok.substr(2));
    std::string value;
    if (i + 1 < argc && std::string_view(argv[i + 1]).substr(0, 2) != "--") value = argv[++i];
    if (!given_.emplace(key, value).second) fail_line("option --" + key + " given twice");
  }

  const std::string* value_of(std::string_view key, bool may_be_empty = false) {
    auto it = given_.find(std::string(key));
    if (it == given_.end()) return nullptr;
    used_.insert(it->first);
    if (!may_be_empty && it->second.empty()) fail(key, "", "a value after the option");
    return &it->second;
  }

  long long parse_integer(std::string_view key, const std::string& text) const {
    long long v = 0;
    const char* end = text.data() + text.size();
    auto res = std::from_chars(text.data(), end, v);
    if (res.ec == std::errc() && res.ptr == end) return v;
    // Scientific notation such as 1e6 names an integer too, if it is exact.
    char* stop = nullptr;
    double d = std::strtod(text.c_str(), &stop);
    if (text.empty() || stop != end || d != std::floor(d) || std::fabs(d) > 9.0e15) {
      fail(key, text, "an integer");
    }
    return static_cast<long long>(d);
  }

  double parse_real(std::string_view key, const std::string& text) const {
    char* end = nullptr;
    double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v)) {
      fail(key, text, "a number");
    }
    return v;
  }

  void describe(std::string_view key, const std::string& def, std::string_view help) {
    known_keys_ += " --" + std::string(key);
    char line[512];
    std::snprintf(line, sizeof line, "  --%-14.*s %.*s [default %s]\n", int(key.size()),
                  key.data(), int(help.size()), help.data(), def.c_str());
    help_text_ += line;
  }

  [[noreturn]] void fail_line(const std::string& msg) const {
    std::fprintf(stderr, "%s: error: %s (see --help)\n", prog_.c_str(), msg.c_str());
    std::exit(2);
  }

  std::string bench_, summary_, prog_;
  std::map<std::string, std::string> given_;
  std::set<std::string> used_;
  std::string help_text_, known_keys_;
  bool help_ = false;
  JsonObject params_;
};

}  // namespace loom_bench
