// CPU chunk engine: a thread of its own runs the submitted chunks one after another, in the
// order submitted: cpu::run_chunk on that thread's OpenMP threads (as many as the submitting
// thread would have used) into a reused buffer, packed into the slot's columns. submit()
// returns at once, so the caller reduces one chunk while the next one runs; wait() blocks until
// the slot's chunk is packed and rethrows a failure of that chunk. Destroying the engine drops
// chunks not yet started and waits for the one running.
#include "cpu_engine.hpp"

#include <array>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <utility>

#include "column_buffer.hpp"

namespace skipstone {

namespace {

class CpuEngine final : public ChunkEngine {
 public:
  CpuEngine(const ScanSpec& spec, const std::vector<ColumnRequest>& requests)
      : spec_(spec), slots_{Slot(requests), Slot(requests)}, worker_([this] { work(); }) {}
  ~CpuEngine() override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    changed_.notify_all();
    worker_.join();
  }
  CpuEngine(const CpuEngine&) = delete;
  CpuEngine& operator=(const CpuEngine&) = delete;

  void submit(int slot, std::uint64_t first, std::uint64_t n, DoneCounter* done) override {
    Slot& s = slots_.at(static_cast<std::size_t>(slot));
    const int threads = cpu::max_threads();  // an OpenMP setting of the calling thread
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (s.state != State::idle) throw std::logic_error("CPU engine: slot submitted again before it was waited for");
      s.chunk = Chunk{first, n, done, threads};
      s.state = State::queued;
      queued_.push_back(slot);
    }
    changed_.notify_all();
  }

  ColumnsView wait(int slot) override {
    Slot& s = slots_.at(static_cast<std::size_t>(slot));
    std::unique_lock<std::mutex> lock(mutex_);
    if (s.state == State::idle) throw std::logic_error("CPU engine: wait for a slot with no chunk");
    changed_.wait(lock, [&] { return s.state == State::finished; });
    s.state = State::idle;
    if (s.error) std::rethrow_exception(std::exchange(s.error, nullptr));
    return s.view;
  }

 private:
  enum class State { idle, queued, finished };
  struct Chunk {
    std::uint64_t first = 0, n = 0;
    DoneCounter* done = nullptr;
    int threads = 1;
  };
  struct Slot {
    explicit Slot(const std::vector<ColumnRequest>& requests) : columns(requests) {}
    ColumnBuffer columns;
    State state = State::idle;
    Chunk chunk;
    ColumnsView view;
    std::exception_ptr error;
  };

  void work() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      changed_.wait(lock, [&] { return stop_ || !queued_.empty(); });
      if (stop_) return;
      Slot& s = slots_[static_cast<std::size_t>(queued_.front())];
      queued_.pop_front();
      const Chunk c = s.chunk;
      lock.unlock();
      try {
        if (cpu::max_threads() != c.threads) cpu::set_threads(c.threads);
        results_.resize(c.n);
        cpu::run_chunk(spec_, c.first, c.n, results_.data(), c.done);
        s.view = s.columns.pack(results_.data(), c.n);
      } catch (...) {
        s.error = std::current_exception();
      }
      lock.lock();
      s.state = State::finished;
      changed_.notify_all();
    }
  }

  ScanSpec spec_;
  std::vector<TrajectoryResult> results_;  // the worker's only
  std::array<Slot, kSlots> slots_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<int> queued_;  // slots in the order submitted
  bool stop_ = false;
  std::thread worker_;  // last: starts once the members above exist
};

}  // namespace

std::unique_ptr<ChunkEngine> make_cpu_engine(const ScanSpec& spec, const std::vector<ColumnRequest>& requests) {
  return std::make_unique<CpuEngine>(spec, requests);
}

}  // namespace skipstone
