// The idle-burn measurement shared by the loom and TBB programs: after the pool has
// run one task, the process sleeps `seconds`; the user+sys CPU time the process used
// meanwhile (getrusage, all threads) is what an idle pool burns.
#pragma once

#include <sys/resource.h>

#include <chrono>
#include <thread>

namespace core_idle {

inline double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto sec = [](const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) * 1e-6; };
  return sec(u.ru_utime) + sec(u.ru_stime);
}

struct sample {
  double wall_s;
  double cpu_s;
};

inline sample idle_for(double seconds) {
  const double c0 = cpu_seconds();
  const auto t0 = std::chrono::steady_clock::now();
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return {wall, cpu_seconds() - c0};
}

}  // namespace core_idle
