// Workers integrating queued chunks on the CPU or on one or more CUDA devices.
#include "executors.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <optional>
#include <sstream>
#include <thread>
#include <utility>

#include "backends.hpp"
#include "chunk_pipeline.hpp"
#include "cpu_engine.hpp"
#include "config_error.hpp"

namespace skipstone {

std::vector<int> parse_devices(const std::string& text, int device_count) {
  std::vector<int> devices;
  std::stringstream in(text);
  std::string item;
  const auto bad = [&](const std::string& why) {
    return UsageError("--devices " + text + ": " + why + " (expected distinct device indices 0.." +
                      std::to_string(device_count - 1) + " separated by commas; " + std::to_string(device_count) +
                      " CUDA devices are visible)");
  };
  while (std::getline(in, item, ',')) {
    std::size_t used = 0;
    int d = -1;
    try {
      d = std::stoi(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (item.empty() || used != item.size() || d < 0) throw bad("'" + item + "' is not a device index");
    if (d >= device_count) throw bad("device " + item + " does not exist");
    if (std::find(devices.begin(), devices.end(), d) != devices.end()) throw bad("device " + item + " is listed twice");
    devices.push_back(d);
  }
  if (devices.empty() || text.back() == ',') throw bad("empty entry");
  return devices;
}

std::vector<Executor> executors_for(const BackendChoice& backend, const std::vector<int>& devices) {
  if (backend.backend == Backend::cpu) return {Executor{Backend::cpu, -1}};
  if (devices.empty()) return {Executor{Backend::cuda, cuda::current_device()}};
  std::vector<Executor> out;
  for (int d : devices) out.push_back({Backend::cuda, d});
  return out;
}

void bind_to_device(const Executor& e) {
  if (e.backend == Backend::cuda) cuda::set_device(e.device);
}

namespace {

// A chunk whose events feed the boundary or section outputs, final_state, height_series or the
// observables mean_free_time / coverage: the engine's collecting kernel, with the whole
// TrajectoryResult of each trajectory.
RangeResult integrate_collecting(ChunkEngine& engine, const RunConfig& rc, TrajectoryRange chunk, DoneCounter* done) {
  std::vector<TrajectoryResult> buf(static_cast<std::size_t>(chunk.size()));
  BoundaryCollect collect;
  for (auto [c, b] : {std::pair<PointCollect*, const BoundaryOutputs*>{&collect.boundary, &rc.boundary}, {&collect.section, &rc.section}}) {
    c->map = b->map ? &b->spec : nullptr;
    c->recorded = recorded_in(*b, chunk.first, chunk.end);
    c->max_events = b->max_events;
    c->fields = b->event_fields;
  }
  if (rc.section.any()) collect.plane = &rc.plane;
  if (asks(rc, "final_state")) collect.state_columns = static_cast<int>(final_state_columns(rc).size());
  if (!rc.height_times.empty()) {
    collect.heights.points = static_cast<int>(rc.height_times.size());
    collect.heights.t_max = rc.spec.t_max;
    collect.heights.axis = rc.system.traits.model == ModelKind::roll3_table ? 1 : 2;  // roll3: y (in-plane gravity); roll4: x3
  }
  collect.free_time = rc.boundary.free_time;
  collect.cells = rc.boundary.coverage ? &rc.boundary.cells : nullptr;
  engine.collect(rc.spec, chunk.first, chunk.size(), buf.data(), collect, done);
  RangeResult part = reduce_chunk(rc, chunk.first, buf.data(), chunk.size());
  add_point_outputs(part.boundary_points, part, rc, rc.boundary, std::move(collect.boundary.counts), collect.boundary.recorded,
                    collect.boundary.rows, collect.boundary.points);
  add_point_outputs(part.section_points, part, rc, rc.section, std::move(collect.section.counts), collect.section.recorded,
                    collect.section.rows, collect.section.points);
  if (collect.state_columns > 0)
    add_collected_rows(part, "final_state", buf.data(), std::move(collect.final_states), collect.state_columns);
  if (collect.heights.points > 0)
    add_collected_rows(part, "height_series", buf.data(), std::move(collect.height_series), collect.heights.points);
  return part;
}

}  // namespace

std::unique_ptr<ChunkEngine> make_engine(const Executor& e, const RunConfig& rc) {
  if (e.backend == Backend::cuda) return cuda::make_engine(rc.spec, column_requests(rc));
  return make_cpu_engine(rc.spec, column_requests(rc));
}

RangeResult integrate_chunk(ChunkEngine& engine, const RunConfig& rc, TrajectoryRange chunk, DoneCounter* done) {
  const auto t0 = std::chrono::steady_clock::now();
  RangeResult part;
  if (!collects(rc)) {
    engine.submit(0, chunk.first, chunk.size(), done);
    part = reduce_columns(rc, chunk.first, engine.wait(0));
  } else {
    part = integrate_collecting(engine, rc, chunk, done);
  }
  part.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return part;
}

void run_chunks(ChunkEngine& engine, const RunConfig& rc, const std::function<std::optional<TrajectoryRange>()>& next,
                const std::function<void(RangeResult)>& deliver, DoneCounter* done) {
  if (collects(rc)) {
    while (const std::optional<TrajectoryRange> chunk = next()) deliver(integrate_chunk(engine, rc, *chunk, done));
    return;
  }
  run_pipeline(
      engine, next,
      [&](TrajectoryRange chunk, const ColumnsView& columns, double seconds) {
        RangeResult part = reduce_columns(rc, chunk.first, columns);
        part.wall_seconds = seconds;
        deliver(std::move(part));
      },
      done);
}

namespace {

void run_worker(const Executor& e, const RunConfig& rc, ChunkQueue& queue, ResultCollector& collector,
                const std::function<void()>& between_chunks) {
  bind_to_device(e);
  const std::unique_ptr<ChunkEngine> engine = make_engine(e, rc);
  run_chunks(
      *engine, rc,
      [&] {
        if (between_chunks) between_chunks();
        return queue.next();
      },
      [&](RangeResult part) { collector.add(std::move(part)); }, &collector.done());
}

}  // namespace

void run_queue(const std::vector<Executor>& executors, const RunConfig& rc, ChunkQueue& queue, ResultCollector& collector,
               const std::function<void()>& between_chunks) {
  if (executors.size() == 1) {
    run_worker(executors[0], rc, queue, collector, between_chunks);
    return;
  }
  std::vector<std::exception_ptr> errors(executors.size());
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < executors.size(); ++i)
    threads.emplace_back([&, i] {
      try {
        run_worker(executors[i], rc, queue, collector, between_chunks);
      } catch (...) {
        errors[i] = std::current_exception();
        queue.cancel();
      }
    });
  for (std::thread& t : threads) t.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace skipstone
