// The ring the GPU writes warp records into: shared by the device patches
// (patches.cu, compiled by nvcc) and the injection library (inject.cpp).
//
// The ring lives in device memory; the launching thread copies it out (DMA
// on the tracer's own stream) while the kernel runs. GPU writes straight into
// mapped host memory measured ~350 ns per record on the H100, device memory a
// few ns (docs/PERFORMANCE.md). The ring is made of 64-byte slots claimed in
// order from one device counter: a record whose lanes sit at base + rank *
// stride takes one slot, any other record one header slot and four slots of
// lane addresses. A warp that finds no room waits until the host has drained
// the ring (the host publishes its progress in pinned memory): no record is
// ever dropped. The last write of a record is its header's sequence number
// (slot + 1), after a fence; a check word (XOR of the header words, the
// sequence number and, per lane, the addresses) lets the host reject a record
// the copy caught half written.
#pragma once

#include <stdint.h>

#define WS_WARP 32
#define WS_PARAM_SLOTS 1024u     // launches whose parameters can be in flight at once
#define WS_ADDRESS_SLOTS 4u      // slots after a per-lane header: 32 addresses of 8 bytes
#define WS_EXECUTED_COUNTERS 16u // per launch, spread by SM: one counter would serialise every warp

struct WsSlot {  // one 64-byte slot: a record header
  volatile uint64_t seq;  // slot + 1 once the record is complete
  // Words 1-7, written by up to 7 lanes at once.
  uint64_t pc;      // absolute PC of the instruction
  uint64_t base;    // address of the first active lane
  int64_t stride;   // form 0: lane of rank r at base + r * stride
  uint32_t launch;
  uint32_t cta;
  uint32_t mask;
  uint16_t warp;
  uint16_t sm;
  uint8_t space;  // 3 global, 4 shared, 5 local, 19 ldmatrix/stmatrix rows (SANITIZER_INSTRUCTION_*); 14 / 114 cp.async source / destination; 30 / 35 bulk copy to shared / to global
  uint8_t flags;  // SANITIZER_MEMORY_DEVICE_FLAG_*
  uint8_t size;
  uint8_t form;   // 0 strided (one slot), 1 per lane (the next 4 slots hold addr[32], by lane)
  uint32_t pad;
  uint64_t check;  // XOR of words 0-6 and, per lane, of the active lanes' addresses
};

// Device counters, each in its own 128-byte line (indices into a uint64 array).
#define WS_COUNTER_RESERVE 0u        // next slot to claim (all launches)
#define WS_COUNTER_CONSUMED_SEEN 16u // last value of the host's progress a warp read
#define WS_COUNTER_EPOCH 32u         // the host's end-of-launch marker, copied after each traced launch
#define WS_COUNTER_RECORDS 48u       // records claimed in all: counted only under --max-records
#define WS_COUNTER_WORDS 64u

// Per-launch parameters, in device memory; the patch's userdata points here.
struct WsLaunchParams {
  struct WsSlot* ring;                    // device memory
  unsigned long long* counters;           // device: WS_COUNTER_*
  volatile unsigned long long* consumed;  // pinned host: slots the host has drained
  unsigned long long ring_mask;           // slots - 1
  unsigned long long max_records;         // records beyond this are counted, not written (0: no limit)
  uint32_t launch;
  uint32_t enabled;
  uint32_t cta_stride;
  uint32_t pad;
  // Warp instructions of this launch (traced CTAs), in WS_EXECUTED_COUNTERS
  // counters 32 bytes apart: the host adds them up.
  unsigned long long executed[WS_EXECUTED_COUNTERS][4];
};
