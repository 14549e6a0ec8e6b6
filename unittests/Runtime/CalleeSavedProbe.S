//===- CalleeSavedProbe.S - Checks what a fiber switch preserves ----------===//
//
// void ptxjit_test_probe(const uint64_t In[6], void (*Fn)(void *), void *Arg,
//                        uint64_t Out[6])
//   Loads rbx, rbp, r12-r15 from In, calls Fn(Arg), and stores the values
//   those registers hold afterwards into Out: Fn, and any fiber switch in it,
//   must give them back unchanged.
//
//===----------------------------------------------------------------------===//

#if defined(__x86_64__) && defined(__ELF__)
  .text
  .globl ptxjit_test_probe
  .type ptxjit_test_probe,@function
  .p2align 4
ptxjit_test_probe:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  // Out; seven pushes leave rsp 16-byte aligned for the call.
  pushq %rcx
  movq %rsi, %rax
  movq 0(%rdi), %rbx
  movq 8(%rdi), %rbp
  movq 16(%rdi), %r12
  movq 24(%rdi), %r13
  movq 32(%rdi), %r14
  movq 40(%rdi), %r15
  movq %rdx, %rdi
  callq *%rax
  movq (%rsp), %rcx
  movq %rbx, 0(%rcx)
  movq %rbp, 8(%rcx)
  movq %r12, 16(%rcx)
  movq %r13, 24(%rcx)
  movq %r14, 32(%rcx)
  movq %r15, 40(%rcx)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size ptxjit_test_probe, .-ptxjit_test_probe
#endif

  .section .note.GNU-stack,"",@progbits
