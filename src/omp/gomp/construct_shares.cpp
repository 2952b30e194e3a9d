// The table of construct_shares.hpp.
#include "gomp/construct_shares.hpp"

#include <algorithm>
#include <mutex>
#include <thread>
#include <vector>

namespace loom::omp::gomp {

namespace {

struct share {
    share_kind kind;
    const void* key;
    std::uint32_t construct;
    void* value;
    std::uintptr_t id;
    int left;  // members still to leave
};

std::mutex g_mutex;
// Never destroyed: members may leave a construct while the process exits.
auto& g_shares = *new std::vector<share>;

}  // namespace

void share_publish(share_kind kind, const void* key, std::uint32_t construct, void* value,
                   std::uintptr_t id, int members) {
    std::lock_guard lk(g_mutex);
    g_shares.push_back(share{kind, key, construct, value, id, members});
}

void* share_await(share_kind kind, const void* key, std::uint32_t construct) {
    for (;;) {
        {
            std::lock_guard lk(g_mutex);
            for (const share& s : g_shares)
                if (s.kind == kind && s.key == key && s.construct == construct) return s.value;
        }
        std::this_thread::yield();
    }
}

bool share_leave(const void* key, std::uintptr_t id) {
    std::lock_guard lk(g_mutex);
    const auto s = std::find_if(g_shares.begin(), g_shares.end(),
                                [&](const share& e) { return e.key == key && e.id == id; });
    if (s == g_shares.end() || --s->left != 0) return false;
    g_shares.erase(s);
    return true;
}

}  // namespace loom::omp::gomp
