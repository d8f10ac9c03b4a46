MemcpyHtoD,0x00007f1000000000,4096
kernel-1.traceg
MemcpyHtoD,0x00007f1000010000,4096
kernel-2.traceg
