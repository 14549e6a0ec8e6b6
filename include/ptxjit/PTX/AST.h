//===- AST.h - The typed syntax tree of a PTX module ------------*- C++ -*-===//
//
// Nodes are plain structs owned by a Module. Names are StringRefs into the
// source buffer (or into the module's allocator), and operand lists live in
// the module's BumpPtrAllocator, so a parsed module costs a small multiple of
// its text (about 6x for nvcc's output, most of it the statements, 80 bytes
// each, and their operands, 48 bytes each: bench/README.md). Locations are
// llvm::SMLoc pointers into the buffer; the module's SourceMgr turns them
// into lines and columns.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_PTX_AST_H
#define PTXJIT_PTX_AST_H

#include "ptxjit/PTX/InstructionTable.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/SMLoc.h"
#include <cassert>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace llvm {
class MemoryBuffer;
class SourceMgr;
class raw_ostream;
} // namespace llvm

namespace ptxjit {
namespace ptx {

/// The byte or half-word selector a video instruction writes after a
/// register: %r1.b2 and %r1.h1 (scalar video instructions), %r1.h10 and
/// %r1.b7654 (SIMD selectors and destination masks). Kept in two bytes:
/// the kind, the number of digits and up to four 3-bit digits.
class VideoSelector {
public:
  /// Reads ".b0" ... ".b7654", ".h0" ... ".h33"; nothing for other text.
  static std::optional<VideoSelector> parse(llvm::StringRef Text);

  bool empty() const { return Bits == 0; }
  /// 'b' (bytes) or 'h' (half-words).
  char getKind() const { return (Bits >> 14) == 1 ? 'b' : 'h'; }
  /// The number of digits written (1 to 4).
  unsigned size() const { return ((Bits >> 12) & 3) + 1; }
  /// Digit I, counting from the left as written (".b7654": digit 0 is 7).
  unsigned getDigit(unsigned I) const { return (Bits >> (3 * I)) & 7; }
  void print(llvm::raw_ostream &OS) const;
  bool operator==(const VideoSelector &O) const { return Bits == O.Bits; }

private:
  uint16_t Bits = 0;
};

/// A short immutable array behind one pointer, in an allocator (the
/// module's): the length precedes the elements. The suffix lists of an
/// instruction (usually a few bytes each, and shared by the instructions
/// that repeat them) take 8 bytes each this way instead of an ArrayRef's 16.
template <typename T> class PackedArrayRef {
  static_assert(alignof(T) <= alignof(uint32_t) &&
                    std::is_trivially_copyable<T>::value,
                "small trivial elements only");

public:
  PackedArrayRef() = default;
  /// Copies Elements into Alloc; empty without any.
  static PackedArrayRef create(llvm::BumpPtrAllocator &Alloc,
                               llvm::ArrayRef<T> Elements) {
    PackedArrayRef A;
    if (Elements.empty())
      return A;
    void *Mem = Alloc.Allocate(sizeof(uint32_t) + Elements.size() * sizeof(T),
                               alignof(uint32_t));
    uint32_t *Size = new (Mem) uint32_t(Elements.size());
    std::uninitialized_copy(Elements.begin(), Elements.end(),
                            reinterpret_cast<T *>(Size + 1));
    A.Size = Size;
    return A;
  }

  const T *data() const {
    return Size ? reinterpret_cast<const T *>(Size + 1) : nullptr;
  }
  size_t size() const { return Size ? *Size : 0; }
  bool empty() const { return !Size; }
  const T *begin() const { return data(); }
  const T *end() const { return data() + size(); }
  const T &operator[](size_t I) const {
    assert(I < size() && "PackedArrayRef index out of range");
    return data()[I];
  }
  const T &front() const { return (*this)[0]; }
  const T &back() const { return (*this)[size() - 1]; }
  operator llvm::ArrayRef<T>() const { return {data(), size()}; }

private:
  const uint32_t *Size = nullptr;
};

struct Operand;

/// The elements of a Vector or PredPair operand, and the sampler of a
/// texture Address ([tex, smp, {...}]): rare, so an Operand keeps them
/// behind one pointer to a block in an allocator (the module's), where the
/// elements follow a small header. Reads like an ArrayRef<Operand>; an
/// empty list has no block, or a block that carries only a sampler.
class OperandList {
public:
  OperandList() = default;
  /// Copies Elements (and Sampler) into a block of Alloc; empty without
  /// either.
  static OperandList create(llvm::BumpPtrAllocator &Alloc,
                            llvm::ArrayRef<Operand> Elements,
                            llvm::StringRef Sampler = {});

  inline const Operand *data() const;
  size_t size() const { return B ? B->Size : 0; }
  bool empty() const { return size() == 0; }
  const Operand *begin() const { return data(); }
  inline const Operand *end() const;
  inline const Operand &operator[](size_t I) const;
  const Operand &front() const { return (*this)[0]; }
  const Operand &back() const { return (*this)[size() - 1]; }
  inline operator llvm::ArrayRef<Operand>() const;
  llvm::StringRef getSampler() const { return B ? B->Sampler : ""; }

private:
  struct alignas(8) Block {
    llvm::StringRef Sampler;
    size_t Size;
  };
  const Block *B = nullptr;
};

/// One instruction operand. 48 bytes: the parser makes about three per
/// instruction, so they are most of a module's memory.
struct Operand {
  enum KindTy : uint8_t {
    Register,  ///< %r1, %tid.x (Name "%tid", Component 'x'), !%p (Negated)
    IntImm,    ///< 42, -1, 0xff
    FloatImm,  ///< 0f3F800000 (Bits holds the f32 pattern)
    DoubleImm, ///< 0d3FF0000000000000 or 1.5 (Bits holds the f64 pattern)
    Symbol,    ///< a variable, function or label, with optional +offset
    Address,   ///< [base+offset]; base is a register, a symbol or absent
    Vector,    ///< {a, b, ...}
    PredPair,  ///< %p|%q (setp, shfl, match, ... second output)
    Sink,      ///< _
  };
  KindTy Kind = Sink;
  bool Negated = false;        ///< !%p
  bool BaseIsRegister = false; ///< Address: Name is a register, not a symbol
  char Component = 0;          ///< 'x', 'y', 'z' or 'w' after a register
  /// Vector: written inside the brackets of the address before it, as the
  /// coordinates of tex, suld and sust are: [%rd1, {%f1, %f2}].
  bool InAddress = false;
  bool Minus = false;     ///< -%r1: vmad's negated sources
  VideoSelector Selector; ///< %r1.b0, %r1.h10, %r1.b7654 (video instructions)
  llvm::SMLoc Loc;
  llvm::StringRef Name; ///< register or symbol name; Address base
  int64_t Value = 0;    ///< IntImm value, FP bits, or Symbol/Address offset
  OperandList Elements; ///< Vector elements; PredPair: 2 regs

  /// Address of tex and tld4 in independent texturing mode: the sampler
  /// named after the texture, [tex, smp, {...}]; empty otherwise.
  llvm::StringRef getSampler() const {
    return Kind == Address ? Elements.getSampler() : "";
  }
  /// Sets an Address's sampler (its block in Alloc).
  void setSampler(llvm::StringRef Sampler, llvm::BumpPtrAllocator &Alloc) {
    assert(Kind == Address && "only an address has a sampler");
    Elements = OperandList::create(Alloc, {}, Sampler);
  }

  /// A Register, Symbol or Address operand naming Name, as the code
  /// generator builds them.
  static Operand named(KindTy K, llvm::StringRef Name, llvm::SMLoc Loc = {}) {
    Operand Op;
    Op.Kind = K;
    Op.Name = Name;
    Op.Loc = Loc;
    return Op;
  }

  bool isRegister() const { return Kind == Register; }
  bool isImmediate() const {
    return Kind == IntImm || Kind == FloatImm || Kind == DoubleImm;
  }
};

const Operand *OperandList::data() const {
  return B ? reinterpret_cast<const Operand *>(B + 1) : nullptr;
}

const Operand *OperandList::end() const { return data() + size(); }

const Operand &OperandList::operator[](size_t I) const {
  assert(I < size() && "OperandList index out of range");
  return data()[I];
}

OperandList::operator llvm::ArrayRef<Operand>() const {
  return {data(), size()};
}

/// An instruction as written: guard, opcode, dot-suffixes and operands.
/// The one-byte fields come first, so that there is no padding.
struct Instruction {
  Opcode Op = Opcode::Mov;
  bool GuardNegated = false;
  uint8_t VectorWidth = 1;              ///< .v2 / .v4 / .v8
  StateSpace Space = StateSpace::None;  ///< ld.global, cvta.to.shared, ...
  StateSpace Space2 = StateSpace::None; ///< cp.async.ca.shared.global: .global
  /// call only: return operands, callee and arguments are in Operands as
  /// [returns..., callee, args..., prototype?]; these count them.
  uint8_t NumCallReturns = 0;
  uint8_t NumCallArgs = 0;
  bool HasCallPrototype = false;
  llvm::SMLoc Loc;
  llvm::StringRef GuardPredicate;     ///< empty if unguarded
  PackedArrayRef<ScalarType> Types;   ///< in source order
  PackedArrayRef<Modifier> Modifiers; ///< in source order
  llvm::ArrayRef<Operand> Operands;
  /// Order of the dot-suffixes as written (for the printer): each entry tags
  /// the next item of Types, Modifiers, Space or VectorWidth.
  enum SuffixKind : uint8_t { SKType, SKModifier, SKSpace, SKVector };
  PackedArrayRef<SuffixKind> SuffixOrder;

  bool hasModifier(Modifier M) const;
  /// The comparison of setp, set and the like (.lt, .ltu, ...): the first
  /// modifier of the Compare group, .eq if there is none.
  Modifier getComparison() const;
  /// Whether operand 0 is a destination the instruction writes (not for
  /// st, red, branches, call, barriers other than bar.red, ...).
  bool writesFirstOperand() const;
  /// How many leading operands are destinations: a call's returns, else
  /// the first operand when writesFirstOperand.
  unsigned getNumDestinations() const;
  /// Whether the first operand is also read, before it is written
  /// (OpReadsDestination).
  bool readsFirstOperand() const;
  ScalarType getType(unsigned I = 0) const {
    return I < Types.size() ? Types[I] : ScalarType::None;
  }
};

/// An initializer of a module-scope variable.
struct Initializer {
  enum KindTy : uint8_t { Int, Float, Double, Symbol, Generic, List };
  KindTy Kind = Int;
  llvm::SMLoc Loc;
  int64_t Value = 0;                 ///< integer, FP bits, or symbol offset
  llvm::StringRef Name;              ///< Symbol and Generic: the variable named
  std::vector<Initializer> Elements; ///< List
};

enum class Linkage : uint8_t { None, Visible, Extern, Weak, Common };

/// .texref, .samplerref and .surfref: opaque references to a texture, a
/// sampler or a surface. Their storage is 64-bit (see TextureABI.h).
enum class OpaqueKind : uint8_t { None, TexRef, SamplerRef, SurfRef };

/// One `name = value` of a .texref or .samplerref initializer:
/// `= { addr_mode_0 = clamp_to_border, filter_mode = nearest }`.
struct SamplerField {
  llvm::SMLoc Loc;
  llvm::StringRef Name, Value;
};

/// A variable, parameter or register declaration.
/// (The one-byte fields are together, so that there is little padding.)
struct VariableDecl {
  llvm::SMLoc Loc;
  StateSpace Space = StateSpace::None;
  Linkage Link = Linkage::None;
  ScalarType Type = ScalarType::None;
  uint8_t VectorWidth = 1; ///< .v2 / .v4
  uint32_t Align = 0;      ///< 0 if not given
  /// %r<100>: declares %r0 ... %r99.
  bool IsRange = false;
  /// Kernel parameter attributes: .ptr [.space] [.align N].
  bool IsPtr = false;
  StateSpace PtrSpace = StateSpace::None;
  /// .attribute(.managed): a __managed__ variable, reachable from the host.
  bool IsManaged = false;
  /// .texref, .samplerref, .surfref (Type is then .b64).
  OpaqueKind Opaque = OpaqueKind::None;
  bool HasInitializer = false;
  /// Several names in one declaration (".reg .b32 %a, %b;") become several
  /// decls; this is set on all but the first so the printer keeps the line.
  bool ContinuesPrevious = false;
  uint32_t RangeCount = 0; ///< IsRange
  uint32_t PtrAlign = 0;   ///< IsPtr
  llvm::StringRef Name;
  /// Array dimensions; 0 for an unsized dimension ("[]").
  llvm::SmallVector<uint64_t, 1> Dims;
  Initializer Init;
  /// The fields of an opaque variable's initializer (HasInitializer set,
  /// Init unused).
  llvm::SmallVector<SamplerField, 0> SamplerFields;

  /// Size in bytes of one element (vector width included).
  uint64_t getElementSize() const;
  /// Total size in bytes; unsized dimensions count as zero.
  uint64_t getSizeInBytes() const;
};

/// `.file N "name"` debug directive.
struct FileDirective {
  unsigned Index;
  std::string Name;
  std::string Rest; ///< optional timestamp and size, kept verbatim
};

/// A `.callprototype` signature.
struct CallPrototype {
  std::vector<VariableDecl> Returns, Params;
  bool NoReturn = false;
};

/// What a statement that is not an instruction holds.
struct DirectiveInfo {
  llvm::SMLoc Loc;
  llvm::StringRef Name; ///< Label, BranchTargets, Prototype
  llvm::StringRef Text; ///< Pragma; Loc: the rest of the line, verbatim
  unsigned LocFile = 0, LocLine = 0, LocColumn = 0; ///< Loc
};

/// One statement inside a function body. Instructions are most statements,
/// and the other kinds share their storage: Instr is valid only in an Inst,
/// Dir only in the others (80 bytes in all).
struct Statement {
  enum KindTy : uint8_t {
    Inst,          ///< Instr
    Label,         ///< Dir.Name:
    Decl,          ///< Function::Locals[Index] (.reg/.local/.shared/.param)
    ScopeBegin,    ///< {
    ScopeEnd,      ///< }
    Pragma,        ///< .pragma "Dir.Text";
    Loc,           ///< .loc File Line Column (Dir.Text keeps the rest)
    BranchTargets, ///< Dir.Name: .branchtargets Function::TargetLists[Index];
    Prototype,     ///< Dir.Name: .callprototype Function::Prototypes[Index]
  };

  /// An instruction statement; set Kind (and Dir) for the others.
  Statement() : Instr() {}
  explicit Statement(KindTy K) : Kind(K) {
    if (K == Inst)
      new (&Instr) Instruction();
    else
      new (&Dir) DirectiveInfo();
  }

  /// Where the statement starts: Instr.Loc or Dir.Loc.
  llvm::SMLoc getLoc() const { return Kind == Inst ? Instr.Loc : Dir.Loc; }
  void setLoc(llvm::SMLoc L) { (Kind == Inst ? Instr.Loc : Dir.Loc) = L; }

  KindTy Kind = Inst;
  unsigned Index = 0;
  union {
    Instruction Instr;
    DirectiveInfo Dir;
  };
};

struct Function {
  llvm::SMLoc Loc;
  bool IsEntry = false;
  Linkage Link = Linkage::None;
  bool NoReturn = false;
  llvm::StringRef Name;
  std::vector<VariableDecl> Returns;
  std::vector<VariableDecl> Params;
  /// Performance-tuning directives; 0 where absent.
  uint32_t MaxNTid[3] = {0, 0, 0};
  uint32_t ReqNTid[3] = {0, 0, 0};
  unsigned NumMaxNTid = 0, NumReqNTid = 0;
  uint32_t MinNCTAPerSM = 0;
  uint32_t MaxNReg = 0;
  uint32_t MaxNCTAPerSM = 0;
  /// Cluster directives (sm_90): .explicitcluster, .reqnctapercluster,
  /// .maxclusterrank.
  bool ExplicitCluster = false;
  uint32_t ReqNCTAPerCluster[3] = {0, 0, 0};
  unsigned NumReqNCTAPerCluster = 0;
  uint32_t MaxClusterRank = 0;
  /// .abi_preserve N and .abi_preserve_control N; -1 where absent.
  int32_t AbiPreserve = -1, AbiPreserveControl = -1;
  std::vector<std::string> Pragmas; ///< .pragma before the body
  bool HasBody = false;
  std::vector<Statement> Body;
  std::vector<VariableDecl> Locals;
  std::vector<llvm::SmallVector<llvm::StringRef, 4>> TargetLists;
  std::vector<CallPrototype> Prototypes;
};

/// A top-level item, in source order.
struct TopLevel {
  enum KindTy : uint8_t { Variable, Func, File, Section };
  KindTy Kind;
  unsigned Index; ///< into Module::Globals, Functions, Files or Sections
};

/// A copy of A in Alloc (empty: no allocation), for the AST's arrays.
template <typename T>
llvm::ArrayRef<T> copyArray(llvm::BumpPtrAllocator &Alloc,
                            llvm::ArrayRef<T> A) {
  if (A.empty())
    return {};
  T *Mem = Alloc.Allocate<T>(A.size());
  std::uninitialized_copy(A.begin(), A.end(), Mem);
  return {Mem, A.size()};
}

class Module {
public:
  explicit Module(std::unique_ptr<llvm::MemoryBuffer> Source);
  ~Module();
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;

  // What the parser fills in (clearContents() empties each).
  std::string Version;              ///< "8.0"
  std::vector<std::string> Targets; ///< sm_80, debug, texmode_independent
  unsigned AddressSize = 64;
  bool HasAddressSize = false;

  std::vector<VariableDecl> Globals;
  std::vector<Function> Functions;
  std::vector<FileDirective> Files;
  /// `.section` blocks (DWARF), kept verbatim so the printer can write them.
  std::vector<std::string> Sections;
  std::vector<TopLevel> Order;

  const Function *findFunction(llvm::StringRef Name) const;
  const VariableDecl *findGlobal(llvm::StringRef Name) const;

  /// Storage for operand arrays and names that are not in the source.
  llvm::BumpPtrAllocator &getAllocator() { return Alloc; }
  template <typename T> llvm::ArrayRef<T> copyArray(llvm::ArrayRef<T> A) {
    return ptx::copyArray(Alloc, A);
  }
  llvm::StringRef copyString(llvm::StringRef S);
  /// Keeps A, whose memory parts of the module use, as long as the module.
  void adoptAllocator(std::unique_ptr<llvm::BumpPtrAllocator> A) {
    MoreAllocators.push_back(std::move(A));
  }
  /// Bytes the module's allocators hold (its own and the adopted ones).
  size_t getAllocatorBytes() const;
  /// Forgets everything parsed, leaving the module as constructed.
  void clearContents();

  /// The source the module was parsed from; SMLocs point into it.
  llvm::SourceMgr &getSourceMgr() { return *SrcMgr; }
  const llvm::SourceMgr &getSourceMgr() const { return *SrcMgr; }
  /// 1-based line of a location (0 if unknown).
  unsigned getLine(llvm::SMLoc Loc) const;
  /// The whole source text.
  llvm::StringRef getSourceText() const;

private:
  llvm::BumpPtrAllocator Alloc;
  /// Of the threads that parsed function bodies.
  std::vector<std::unique_ptr<llvm::BumpPtrAllocator>> MoreAllocators;
  std::unique_ptr<llvm::SourceMgr> SrcMgr;
};

} // namespace ptx
} // namespace ptxjit

#endif
