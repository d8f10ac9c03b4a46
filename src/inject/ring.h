// The ring the GPU writes warp records into: shared by the device patches
// (patches.cu, compiled by nvcc) and the injection library (inject.cpp).
//
// The ring lives in device memory; the launching thread copies it out (DMA
// on the tracer's own stream) while the kernel runs. GPU writes straight into mapped host
// memory measured ~350 ns per record on the H100 (docs/PERFORMANCE.md), device
// memory ~5 ns. Slots are claimed in order from one device counter; a warp
// whose slot is still full waits until the host has drained it (the host
// publishes its progress in pinned memory): no record is ever dropped. The
// last write of a slot is its sequence number (slot + 1), after a fence; a
// check word (XOR of the header words, the sequence number and, per lane, the
// addresses) lets the host reject a slot the copy caught half written.
#pragma once

#include <stdint.h>

#define WS_WARP 32
#define WS_PARAM_SLOTS 1024u  // launches whose parameters can be in flight at once

struct WsSlot {
  volatile uint64_t seq;  // slot + 1 once the record is complete
  // Words 1-7, written by up to 7 lanes at once (one 64-byte burst).
  uint64_t pc;      // absolute PC of the instruction
  uint64_t base;    // address of the first active lane
  int64_t stride;   // form 0: lane of rank r at base + r * stride
  uint32_t launch;
  uint32_t cta;
  uint32_t mask;
  uint16_t warp;
  uint16_t sm;
  uint8_t space;  // 3 global, 4 shared, 5 local (SANITIZER_INSTRUCTION_*)
  uint8_t flags;  // SANITIZER_MEMORY_DEVICE_FLAG_*
  uint8_t size;
  uint8_t form;   // 0 strided (addr unused), 1 per lane
  uint32_t pad;
  uint64_t check;  // XOR of words 0-6 and, per lane, of the active lanes' addresses
  uint64_t addr[WS_WARP];
};

// Per-launch parameters, in device memory; the patch's userdata points here.
struct WsLaunchParams {
  struct WsSlot* ring;                         // device memory
  unsigned long long* reserve;                 // device: next slot to claim (all launches)
  volatile unsigned long long* consumed;       // pinned host: slots the host has drained
  unsigned long long* consumed_seen;           // device: last value of *consumed a warp read
  unsigned long long ring_mask;                // slots - 1
  unsigned long long max_records;              // slots >= this are not written (0: no limit)
  unsigned long long executed;                 // warp instructions of this launch (traced CTAs)
  uint32_t launch;
  uint32_t enabled;
  uint32_t cta_stride;
  uint32_t pad;
};
