// A sectored, set-associative cache: the building block of every L1, read-only
// cache and L2 in the memory-system model (DESIGN.md "caches").
//
// What it models: tags of lines (128 B by default) made of sectors (32 B), a
// valid and a dirty bit per sector, the bytes written into sectors whose data
// was never fetched (write-allocate without fetch), a per-line evict-first
// flag (PTX .cs/.lu), and the replacement order of each set. What it does not:
// data, timing, MSHRs. Every operation is allocation-free; the tag store is
// sized once, at construction.
#pragma once

#include <bit>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>

namespace warpscope {

// A line address: byte address >> log2(line size). Kept apart from byte
// addresses and sector indices so that they cannot be mixed up.
struct LineAddr {
  std::uint64_t value = 0;
  friend constexpr bool operator==(LineAddr, LineAddr) = default;
};

// Sectors of one line: bit i is sector i (at most 8 sectors per line).
class SectorMask {
 public:
  constexpr SectorMask() = default;
  constexpr explicit SectorMask(std::uint8_t bits) : bits_(bits) {}
  static constexpr SectorMask first(int n) { return SectorMask(static_cast<std::uint8_t>((1u << n) - 1u)); }
  constexpr std::uint8_t bits() const { return bits_; }
  constexpr int count() const;
  constexpr bool none() const { return bits_ == 0; }
  constexpr bool any() const { return bits_ != 0; }
  constexpr bool test(int sector) const { return ((bits_ >> sector) & 1u) != 0; }
  constexpr SectorMask operator&(SectorMask o) const { return SectorMask(static_cast<std::uint8_t>(bits_ & o.bits_)); }
  constexpr SectorMask operator|(SectorMask o) const { return SectorMask(static_cast<std::uint8_t>(bits_ | o.bits_)); }
  constexpr SectorMask operator~() const { return SectorMask(static_cast<std::uint8_t>(~bits_)); }
  constexpr SectorMask& operator|=(SectorMask o) { bits_ = static_cast<std::uint8_t>(bits_ | o.bits_); return *this; }
  constexpr SectorMask& operator&=(SectorMask o) { bits_ = static_cast<std::uint8_t>(bits_ & o.bits_); return *this; }
  friend constexpr bool operator==(SectorMask, SectorMask) = default;

 private:
  std::uint8_t bits_ = 0;
};

constexpr int SectorMask::count() const { return std::popcount(bits_); }

// The bytes of one line (<= 128 B) a write touches: bit i of the 128-bit mask is byte i.
struct LineBytes {
  std::uint64_t w[2] = {0, 0};
  bool none() const { return (w[0] | w[1]) == 0; }
  // Marks bytes [offset, offset + size) (no wrap past the line end).
  void mark(unsigned offset, unsigned size);
  // The sectors with at least one byte / with every byte set, for sectors of `sector_bytes`.
  SectorMask touched(unsigned sector_bytes) const;
  SectorMask full(unsigned sector_bytes) const;
  static LineBytes all(unsigned line_bytes);
  LineBytes& operator|=(const LineBytes& o) { w[0] |= o.w[0]; w[1] |= o.w[1]; return *this; }
  friend bool operator==(const LineBytes&, const LineBytes&) = default;
};

// RandomOldest ("randm<M>" in the database): LRU order, but a miss in a full
// set evicts a line drawn uniformly from the CacheConfig::victim_candidates
// least recently used ones (the H100 L1, validation/h100/l1_geometry).
enum class Replacement : std::uint8_t { Lru, Fifo, Random, RandomOldest };
enum class SetHash : std::uint8_t { Modulo, XorFold };
std::string_view to_string(Replacement r);
std::string_view to_string(SetHash h);

struct CacheConfig {
  std::string name = "cache";      // for describe() and errors
  std::int64_t size_bytes = 0;     // capacity; sets = size / (line_bytes * ways), at least 1
  int line_bytes = 128;            // power of two, 8..128
  int sector_bytes = 32;           // power of two, line_bytes / sector_bytes <= 8
  int ways = 4;                    // associativity (1 = direct mapped)
  Replacement replacement = Replacement::Lru;
  SetHash set_hash = SetHash::Modulo;
  std::uint64_t seed = 0x9e3779b97f4a7c15ull;  // Random / RandomOldest replacement
  int victim_candidates = 8;                    // RandomOldest: the M of randm<M> (1 = LRU)
  // Keep the bytes written into not-yet-fetched sectors (write-allocate without
  // fetch). Without it, a write into an absent sector is a write-around.
  bool byte_masks = false;
  // Sector promotion: a read with ReadOptions::group_fill that misses fetches
  // whole aligned groups of this many sectors (1..sectors per line, a power of
  // two); the sectors nobody asked for are ReadResult::promoted (9.0 L2: 64 B
  // DRAM fills, src/memory/l2_partitions.hpp).
  int fill_sectors = 1;
};

// What happened to a line that left the cache: its dirty sectors, which the
// caller writes back (partially written sectors carry only their written bytes).
struct Eviction {
  LineAddr line;
  SectorMask dirty;          // dirty sectors written back (none: nothing to write)
  SectorMask dirty_partial;  // of those, sectors whose data was never fetched
  LineBytes bytes;           // the bytes written back (whole dirty sectors for valid ones)
  bool any() const { return dirty.any(); }
};

struct ReadOptions {
  bool allocate = true;      // install the line on a miss (no: a bypassing lookup)
  bool evict_first = false;  // install as the next victim of its set (.cs / .lu)
  bool fill_line = false;    // a miss fetches every invalid sector of the line (Fermi/Kepler L1)
  bool group_fill = false;   // CacheConfig::fill_sectors > 1: fetch whole groups
};

struct ReadResult {
  SectorMask hit;     // requested sectors found valid
  SectorMask miss;    // requested sectors not valid (tag miss or sector miss)
  SectorMask fetch;   // sectors the caller must read from the next level
  SectorMask promoted;  // group_fill: fetched sectors nobody asked for (part of fetch)
  Eviction evicted;   // the victim replaced by this read, if it was dirty
};

struct WriteOptions {
  bool allocate = true;      // write-allocate (without fetch) on a miss; no: write-around
  bool evict_first = false;
  bool write_back = true;    // mark the written sectors dirty (no: write-through, the caller forwards)
};

struct WriteResult {
  SectorMask hit;     // written sectors whose line was present and sector valid or partially written
  SectorMask miss;    // written sectors that were not present
  bool line_present = false;  // the line's tag was there before the write
  Eviction evicted;
};

// The replacement policies share one per-set order (src/cache/set_order.hpp)
// and differ only in where a hit moves a line and which line a miss evicts;
// the hot path never allocates.
class Cache {
 public:
  explicit Cache(const CacheConfig& config);
  ~Cache();
  Cache(Cache&&) noexcept;
  Cache& operator=(Cache&&) noexcept;
  Cache(const Cache&) = delete;
  Cache& operator=(const Cache&) = delete;

  // Looks up `sectors` of `line`: hits, misses, and what to fetch.
  ReadResult read(LineAddr line, SectorMask sectors, const ReadOptions& options = {});
  // Writes `bytes` of `line` (sectors that are touched = bytes.touched()).
  WriteResult write(LineAddr line, const LineBytes& bytes, const WriteOptions& options = {});
  // Drops the line; returns its dirty sectors (the caller decides whether to write them back).
  Eviction invalidate(LineAddr line);
  // Drops every line without writing anything back, and restarts the random
  // replacement choices from the seed (the cache as constructed).
  void invalidate_all();
  // Cleans every dirty sector; calls sink(const Eviction&) per dirty line and
  // returns the number of dirty sectors written back.
  template <typename Sink>
  std::uint64_t flush_dirty(Sink&& sink);
  std::uint64_t flush_dirty();

  // Hints the host CPU to fetch the tag-store entries `line` would touch
  // (callers walking many lines issue these first, then access). A hint
  // only: it never changes the cache's state or results.
  void prefetch(LineAddr line) const;

  // Read-only inspection (tests, describe).
  bool contains(LineAddr line) const;
  SectorMask valid_sectors(LineAddr line) const;
  SectorMask dirty_sectors(LineAddr line) const;
  std::uint32_t set_of(LineAddr line) const;
  std::uint32_t sets() const;
  int ways() const;
  int sectors_per_line() const;
  std::int64_t capacity() const;  // sets * ways * line_bytes
  const CacheConfig& config() const;
  std::string describe() const;  // "L2: 50 MB, 20480 sets x 20 ways, 128 B lines of 4 x 32 B, LRU, xor"

 private:
  // Visits the dirty lines, clearing them (flush_dirty's engine).
  void flush_visit(void (*fn)(void*, const Eviction&), void* ctx, std::uint64_t& sectors);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

template <typename Sink>
std::uint64_t Cache::flush_dirty(Sink&& sink) {
  std::uint64_t sectors = 0;
  flush_visit([](void* ctx, const Eviction& e) { (*static_cast<std::remove_reference_t<Sink>*>(ctx))(e); },
              const_cast<void*>(static_cast<const void*>(&sink)), sectors);
  return sectors;
}

// Parses "lru" | "fifo" | "random" | "randm<M>" (M >= 1: `candidates`) and
// "modulo" | "xor" (the database's l1/l2.replacement and set_hash); false
// when unknown.
bool parse_replacement(std::string_view text, Replacement& out, int& candidates);
bool parse_replacement(std::string_view text, Replacement& out);
bool parse_set_hash(std::string_view text, SetHash& out);

}  // namespace warpscope
