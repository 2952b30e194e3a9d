// A small JSON reader for tests that check files loom writes (LOOM_TRACE): objects,
// arrays, strings, numbers, true/false/null. Throws std::runtime_error on bad input.
#pragma once

#include <cctype>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace loom::test {

struct json {
    enum class kind { null, boolean, number, string, array, object } type = kind::null;
    bool flag = false;
    double number = 0;
    std::string text;
    std::vector<json> items;
    std::map<std::string, json> members;

    [[nodiscard]] bool has(const std::string& key) const { return members.count(key) != 0; }
    [[nodiscard]] const json& at(const std::string& key) const {
        auto it = members.find(key);
        if (it == members.end()) throw std::runtime_error("no member " + key);
        return it->second;
    }
};

class json_reader {
public:
    explicit json_reader(std::string_view s) : s_(s) {}

    json document() {
        json v = value();
        skip();
        if (pos_ != s_.size()) fail("text after the document");
        return v;
    }

private:
    [[noreturn]] void fail(const std::string& why) const {
        throw std::runtime_error("JSON: " + why + " at offset " + std::to_string(pos_));
    }
    void skip() {
        while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    }
    char peek() {
        skip();
        if (pos_ >= s_.size()) fail("unexpected end");
        return s_[pos_];
    }
    void expect(char c) {
        if (peek() != c) fail(std::string("expected '") + c + "'");
        ++pos_;
    }
    bool word(std::string_view w) {
        if (s_.substr(pos_, w.size()) != w) return false;
        pos_ += w.size();
        return true;
    }

    json value() {
        const char c = peek();
        json v;
        if (c == '{') return object();
        if (c == '[') return array();
        if (c == '"') {
            v.type = json::kind::string;
            v.text = string();
        } else if (word("true") || word("false")) {
            v.type = json::kind::boolean;
            v.flag = s_[pos_ - 1] == 'e' && s_[pos_ - 2] == 'u';
        } else if (word("null")) {
            v.type = json::kind::null;
        } else {
            v.type = json::kind::number;
            const std::string rest(s_.substr(pos_, 64));
            char* end = nullptr;
            v.number = std::strtod(rest.c_str(), &end);
            if (end == rest.c_str()) fail("bad value");
            pos_ += static_cast<std::size_t>(end - rest.c_str());
        }
        return v;
    }

    std::string string() {
        expect('"');
        std::string out;
        while (pos_ < s_.size() && s_[pos_] != '"') {
            char c = s_[pos_++];
            if (c == '\\') {
                if (pos_ >= s_.size()) fail("bad escape");
                c = s_[pos_++];
                if (c == 'u') {
                    out += static_cast<char>(std::strtol(std::string(s_.substr(pos_, 4)).c_str(), nullptr, 16));
                    pos_ += 4;
                    continue;
                }
                if (c == 'n') c = '\n';
                if (c == 't') c = '\t';
            }
            out += c;
        }
        expect('"');
        return out;
    }

    json array() {
        json v;
        v.type = json::kind::array;
        expect('[');
        if (peek() == ']') {
            ++pos_;
            return v;
        }
        for (;;) {
            v.items.push_back(value());
            if (peek() == ']') break;
            expect(',');
        }
        ++pos_;
        return v;
    }

    json object() {
        json v;
        v.type = json::kind::object;
        expect('{');
        if (peek() == '}') {
            ++pos_;
            return v;
        }
        for (;;) {
            skip();
            std::string key = string();
            expect(':');
            v.members[key] = value();
            if (peek() == '}') break;
            expect(',');
        }
        ++pos_;
        return v;
    }

    std::string_view s_;
    std::size_t pos_ = 0;
};

}  // namespace loom::test
