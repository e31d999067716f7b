// Tensors in and out of files (issue 27): a 256 MB dict of tensors (64 float tensors of
// 1024 x 1024) saved and loaded with PyTorch's format (pickle_save / pickle_load, beside
// libtorch's) and with safetensors (miniaten only: libtorch has none), against the rate of
// reading the same file's bytes once into memory that is already there (BM_ReadFileOnce).
//
// Bytes per second count the tensors' bytes. The files live in the page cache (written once
// before the timed loops), so these are the rates of the code, not of a disk.
// BM_SafetensorsLoadFileTouched maps the file and reads one byte of every 4 KiB page of every
// tensor: the work a mapped load leaves for first use, counted here so that it compares with
// reading the bytes.

#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#ifdef MINIATEN_BENCH_LIBTORCH
#include <ATen/ATen.h>
#include <torch/csrc/jit/serialization/pickle.h>
#else
#include "aten/ATen.h"
#include "aten/serialization/Pickle.h"
#include "aten/serialization/Safetensors.h"
#endif

namespace {

constexpr int kTensors = 64;
constexpr int64_t kSide = 1024;
constexpr int64_t kBytes = kTensors * kSide * kSide * 4;

std::vector<std::pair<std::string, at::Tensor>> tensors() {
  static const auto all = [] {
    std::vector<std::pair<std::string, at::Tensor>> out;
    for (int i = 0; i < kTensors; ++i) {
      out.emplace_back("layer" + std::to_string(i) + ".weight", at::rand({kSide, kSide}));
    }
    return out;
  }();
  return all;
}

std::string temp_path(const char* name) {
  return "/tmp/miniaten_bench_io_" + std::to_string(::getpid()) + "_" + name;
}

void read_file(const std::string& path, std::vector<char>& into) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  size_t done = 0;
  while (done < into.size()) {
    const ssize_t n = ::read(fd, into.data() + done, into.size() - done);
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  ::close(fd);
}

c10::Dict<std::string, at::Tensor> tensor_dict() {
  c10::Dict<std::string, at::Tensor> dict;
  for (const auto& [name, t] : tensors()) dict.insert(name, t);
  return dict;
}

// PyTorch's format in memory, as both libraries have it: the dict to the zip's bytes.
void BM_PickleSave(benchmark::State& state) {
  const c10::IValue dict(tensor_dict());
  for (auto _ : state) {
    std::vector<char> bytes = torch::jit::pickle_save(dict);
    benchmark::DoNotOptimize(bytes.data());
  }
  state.SetBytesProcessed(state.iterations() * kBytes);
}
BENCHMARK(BM_PickleSave)->Unit(benchmark::kMillisecond)->UseRealTime();

// And back: every tensor a copy of its storage's bytes in both.
void BM_PickleLoad(benchmark::State& state) {
  const std::vector<char> bytes = torch::jit::pickle_save(c10::IValue(tensor_dict()));
  for (auto _ : state) {
    c10::IValue back = torch::jit::pickle_load(bytes);
    benchmark::DoNotOptimize(back);
  }
  state.SetBytesProcessed(state.iterations() * kBytes);
}
BENCHMARK(BM_PickleLoad)->Unit(benchmark::kMillisecond)->UseRealTime();

#ifndef MINIATEN_BENCH_LIBTORCH
// miniaten's file forms: written as it goes, and loaded memory-mapped.
void BM_PickleSaveFile(benchmark::State& state) {
  const c10::IValue dict(tensor_dict());
  const std::string path = temp_path("save.pt");
  for (auto _ : state) torch::jit::pickle_save_file(dict, path);
  std::remove(path.c_str());
  state.SetBytesProcessed(state.iterations() * kBytes);
}
BENCHMARK(BM_PickleSaveFile)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_PickleLoadFile(benchmark::State& state) {
  const std::string path = temp_path("load.pt");
  torch::jit::pickle_save_file(c10::IValue(tensor_dict()), path);
  for (auto _ : state) {
    c10::IValue back = torch::jit::pickle_load_file(path);
    benchmark::DoNotOptimize(back);
  }
  std::remove(path.c_str());
  state.SetBytesProcessed(state.iterations() * kBytes);
}
BENCHMARK(BM_PickleLoadFile)->Unit(benchmark::kMillisecond)->UseRealTime();

at::safetensors::TensorMap tensor_map() {
  at::safetensors::TensorMap map;
  for (const auto& [name, t] : tensors()) map.emplace(name, t);
  return map;
}

// Written once, removed when the program ends.
struct TempFile {
  std::string path;
  ~TempFile() { std::remove(path.c_str()); }
};

const std::string& safetensors_file() {
  static const TempFile file{temp_path("model.safetensors")};
  static const bool written = (at::safetensors::save_file(tensor_map(), file.path), true);
  (void)written;
  return file.path;
}

void BM_ReadFileOnce(benchmark::State& state) {
  const std::string& path = safetensors_file();
  std::vector<char> buffer(static_cast<size_t>(kBytes) + (1 << 20), 1);  // touched beforehand
  for (auto _ : state) {
    read_file(path, buffer);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * kBytes);
}
BENCHMARK(BM_ReadFileOnce)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_SafetensorsSaveFile(benchmark::State& state) {
  const auto map = tensor_map();
  const std::string path = temp_path("save.safetensors");
  for (auto _ : state) at::safetensors::save_file(map, path);
  std::remove(path.c_str());
  state.SetBytesProcessed(state.iterations() * kBytes);
}
BENCHMARK(BM_SafetensorsSaveFile)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_SafetensorsLoadFile(benchmark::State& state) {
  const std::string& path = safetensors_file();
  for (auto _ : state) {
    auto map = at::safetensors::load_file(path);
    benchmark::DoNotOptimize(map);
  }
  state.SetBytesProcessed(state.iterations() * kBytes);
}
BENCHMARK(BM_SafetensorsLoadFile)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_SafetensorsLoadFileTouched(benchmark::State& state) {
  const std::string& path = safetensors_file();
  for (auto _ : state) {
    auto map = at::safetensors::load_file(path);
    unsigned sum = 0;
    for (const auto& [name, t] : map) {
      const auto* p = static_cast<const unsigned char*>(t.data_ptr());
      const size_t n = static_cast<size_t>(t.numel()) * 4;
      for (size_t i = 0; i < n; i += 4096) sum += p[i];
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetBytesProcessed(state.iterations() * kBytes);
}
BENCHMARK(BM_SafetensorsLoadFileTouched)->Unit(benchmark::kMillisecond)->UseRealTime();
#endif

}  // namespace

BENCHMARK_MAIN();
