/*
 * relaykit_profile_flush.o: linked into every module of an instrumented TVM beside clang's
 * profile runtime (scripts/tvm-instrumented.sh; issue 32, the measurement half).  That runtime
 * writes a module's source-based coverage counts when the process exits normally; tvm-server's
 * child per candidate ends with _exit, which writes nothing, so without this every candidate's
 * coverage would be lost.  The runtime's writer is hidden inside each module (every module has
 * its own copy of the runtime), so this object, linked into the module, exports a way in:
 *
 *   int relaykit_profile_flush(void)   0 written (merged into LLVM_PROFILE_FILE, use %m), else
 *                                      non-zero; -1 when the module has no profile runtime
 *
 * The child calls it in each loaded module (dlopen of the module's own file, then dlsym: the
 * module's own copy) before _exit, only when LLVM_PROFILE_FILE is set.  A child that crashes or
 * is killed for a timeout writes nothing: its branches are missing from the measurement (the
 * feedback's edge counters, runtime.c, keep them).
 */
extern int __llvm_profile_write_file(void) __attribute__((weak, visibility("hidden")));

__attribute__((visibility("default"))) int relaykit_profile_flush(void) {
  return __llvm_profile_write_file ? __llvm_profile_write_file() : -1;
}
