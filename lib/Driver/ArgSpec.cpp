//===- ArgSpec.cpp - The --arg SPEC grammar of `ptx-jit run` --------------===//

#include "ptxjit/Driver/ArgSpec.h"
#include "llvm/ADT/StringExtras.h"
#include <limits>

using namespace llvm;
using namespace ptxjit::driver;

static Expected<uint64_t> parseSeed(StringRef Text) {
  Expected<ScalarLiteral> Lit = parseScalarLiteral(Text);
  if (!Lit)
    return Lit.takeError();
  if (Lit->Kind != ScalarLiteral::Integer || Lit->IsNegative)
    return createStringError("rand seed '%s' is not a non-negative integer",
                             Lit->Text.c_str());
  return Lit->Magnitude;
}

static Error parseList(StringRef Text, BufferInit &Init) {
  if (!Text.consume_front("[") || !Text.consume_back("]"))
    return createStringError("a value list is written [v0,v1,...]");
  Init.Kind = BufferInit::List;
  if (Text.trim().empty())
    return Error::success();
  SmallVector<StringRef, 16> Items;
  Text.split(Items, ',');
  for (auto [I, Item] : enumerate(Items)) {
    Expected<ScalarLiteral> Lit = parseScalarLiteral(Item);
    if (!Lit)
      return createStringError("element %zu of the list: %s", I,
                               toString(Lit.takeError()).c_str());
    Init.Values.push_back(std::move(*Lit));
  }
  return Error::success();
}

static Expected<BufferInit> parseInit(StringRef Text) {
  BufferInit Init;
  if (Text == "zero")
    return Init;
  if (Text == "uninit") {
    Init.Kind = BufferInit::Uninit;
    return Init;
  }
  if (Text == "iota") {
    Init.Kind = BufferInit::Iota;
    return Init;
  }
  if (Text == "rand") {
    Init.Kind = BufferInit::Rand;
    return Init;
  }
  if (Text.consume_front("rand:")) {
    Init.Kind = BufferInit::Rand;
    Expected<uint64_t> Seed = parseSeed(Text);
    if (!Seed)
      return Seed.takeError();
    Init.Seed = *Seed;
    return Init;
  }
  if (Text.consume_front("fill:")) {
    Init.Kind = BufferInit::Fill;
    Expected<ScalarLiteral> Lit = parseScalarLiteral(Text);
    if (!Lit)
      return Lit.takeError();
    Init.Values.push_back(std::move(*Lit));
    return Init;
  }
  if (Text.starts_with("[")) {
    if (Error E = parseList(Text, Init))
      return std::move(E);
    return Init;
  }
  if (Text.consume_front("@")) {
    if (Text.empty())
      return createStringError("expected a file name after '@'");
    Init.Kind = BufferInit::File;
    Init.Path = Text.str();
    return Init;
  }
  return createStringError("unknown initializer '%s' (expected zero, iota, "
                           "rand, rand:SEED, fill:VALUE, [v0,v1,...] or "
                           "@PATH)",
                           Text.str().c_str());
}

static Expected<BufferOutput> parseOutput(StringRef Text) {
  BufferOutput Out;
  if (Text.empty())
    return createStringError("expected '-' or a file name after '>'");
  if (Text == "-") {
    Out.Kind = BufferOutput::Print;
    return Out;
  }
  Out.Kind = BufferOutput::File;
  Out.Path = Text.str();
  return Out;
}

static Expected<BufferSpec> parseBuffer(ElementType Ty, StringRef Rest) {
  BufferSpec Buf;
  Buf.Type = Ty;
  StringRef TypeName = getElementTypeName(Ty);
  size_t Close = Rest.find(']');
  if (!Rest.consume_front("[") || Close == StringRef::npos)
    return createStringError("expected '[COUNT]' after '%s'", TypeName.data());
  StringRef CountText = Rest.take_until([](char C) { return C == ']'; });
  Rest = Rest.drop_front(CountText.size() + 1);
  CountText = CountText.trim();
  if (CountText.empty() || !all_of(CountText, isDigit) ||
      CountText.getAsInteger(10, Buf.Count))
    return createStringError("'%s' is not a valid element count",
                             CountText.str().c_str());
  if (Buf.Count > std::numeric_limits<size_t>::max() / getElementSize(Ty))
    return createStringError("%s[%s] is too large", TypeName.data(),
                             CountText.str().c_str());

  auto [InitText, OutText] = Rest.split('>');
  bool HasOutput = Rest.contains('>');
  if (!InitText.empty()) {
    if (!InitText.consume_front("="))
      return createStringError("expected '=INIT' or '>OUT' after '%s[%s]', "
                               "found '%s'",
                               TypeName.data(), CountText.str().c_str(),
                               InitText.str().c_str());
    Expected<BufferInit> Init = parseInit(InitText.trim());
    if (!Init)
      return Init.takeError();
    Buf.Init = std::move(*Init);
  }
  if (HasOutput) {
    Expected<BufferOutput> Out = parseOutput(OutText.trim());
    if (!Out)
      return Out.takeError();
    Buf.Output = std::move(*Out);
  }
  return Buf;
}

namespace {
/// What an image KIND makes.
struct ImageKind {
  llvm::StringLiteral Name;
  bool IsSurface;
  unsigned Dimensions;
  bool Layered, Cubemap;
  /// What the sizes in '[...]' are, for messages.
  llvm::StringLiteral Sizes;
};
} // namespace

static constexpr ImageKind ImageKinds[] = {
    {"tex1d", false, 1, false, false, "W"},
    {"tex2d", false, 2, false, false, "W,H"},
    {"tex3d", false, 3, false, false, "W,H,D"},
    {"tex1dlayered", false, 1, true, false, "W,LAYERS"},
    {"tex2dlayered", false, 2, true, false, "W,H,LAYERS"},
    {"texcube", false, 2, false, true, "W (the faces are W x W)"},
    {"texcubelayered", false, 2, true, true, "W,LAYERS"},
    {"surf1d", true, 1, false, false, "W"},
    {"surf2d", true, 2, false, false, "W,H"},
    {"surf3d", true, 3, false, false, "W,H,D"},
};

static const ImageKind *findImageKind(StringRef Name) {
  for (const ImageKind &K : ImageKinds)
    if (K.Name == Name)
      return &K;
  return nullptr;
}

/// KIND ':' TYPE['x'N] '[' SIZES ']' ['=' INIT] {',' OPTION} ['>' OUT],
/// after the KIND.
static Error parseImage(const ImageKind &Kind, StringRef Rest, ArgSpec &Arg) {
  ImageSpec &Img = Arg.Img;
  Img.IsSurface = Kind.IsSurface;
  Img.Dimensions = Kind.Dimensions;
  Img.Layered = Kind.Layered;
  Img.Cubemap = Kind.Cubemap;
  if (!Rest.consume_front(":"))
    return createStringError("expected ':' after '%s'", Kind.Name.data());
  StringRef Head = Rest.take_while(isAlnum);
  Rest = Rest.drop_front(Head.size());
  // Vector texels: f32x4 is four f32 channels.
  StringRef Channel = Head;
  if (size_t X = Head.find('x'); X != StringRef::npos) {
    Channel = Head.take_front(X);
    StringRef N = Head.drop_front(X + 1);
    if (N != "2" && N != "4")
      return createStringError("'%s' is not a texel type (a channel type, "
                               "or one with 'x2' or 'x4' for 2 or 4 "
                               "channels)",
                               Head.str().c_str());
    Img.Channels = N == "2" ? 2 : 4;
  }
  std::optional<ElementType> Ty = parseElementType(Channel);
  const StringRef Texels[] = {"u8",  "s8",  "u16", "s16",
                              "u32", "s32", "f16", "f32"};
  if (!Ty || !is_contained(Texels, Channel))
    return createStringError("'%s' is not a texel type (expected one of u8, "
                             "s8, u16, s16, u32, s32, f16, f32, each "
                             "optionally x2 or x4)",
                             Head.str().c_str());
  size_t Close = Rest.find(']');
  if (!Rest.consume_front("[") || Close == StringRef::npos)
    return createStringError("expected '[%s]' after '%s'", Kind.Sizes.data(),
                             Head.str().c_str());
  SmallVector<StringRef, 3> Sizes;
  Rest.take_until([](char C) { return C == ']'; }).split(Sizes, ',');
  Rest = Rest.drop_front(Close);
  size_t NumSizes = size_t(Kind.Cubemap ? 1 : Kind.Dimensions) + Kind.Layered;
  if (Sizes.size() != NumSizes)
    return createStringError(
        "%s takes %zu size%s (%s), found %zu", Kind.Name.data(), NumSizes,
        NumSizes == 1 ? "" : "s", Kind.Sizes.data(), Sizes.size());
  uint64_t Count = Img.Channels;
  for (auto [K, S] : enumerate(Sizes)) {
    S = S.trim();
    if (S.empty() || !all_of(S, isDigit) || S.getAsInteger(10, Img.Extent[K]) ||
        Img.Extent[K] == 0 || Img.Extent[K] > (1u << 16))
      return createStringError("'%s' is not a valid size (1 to 65536)",
                               S.str().c_str());
    Count *= Img.Extent[K];
  }
  // A cubemap's faces are square, six of them a layer.
  if (Kind.Cubemap)
    Count *= Img.Extent[0] * 6;
  // INIT, up to the first ',' or '>'; then the options.
  auto [Body, OutText] = Rest.split('>');
  bool HasOutput = Rest.contains('>');
  auto [InitText, Options] = Body.split(',');
  std::string Buffer = (Head + "[" + Twine(Count) + "]" + InitText).str();
  if (HasOutput)
    Buffer += (">" + OutText).str();
  Expected<BufferSpec> Buf =
      parseBuffer(*Ty, StringRef(Buffer).drop_front(Head.size()));
  if (!Buf)
    return Buf.takeError();
  Arg.Buf = std::move(*Buf);
  SmallVector<StringRef, 4> Opts;
  Options.split(Opts, ',', -1, /*KeepEmpty=*/false);
  for (StringRef O : Opts) {
    O = O.trim();
    auto [Key, Value] = O.split('=');
    const StringRef Modes[] = {"wrap", "clamp", "mirror", "border"};
    if (O == "normalized") {
      Img.NormalizedCoords = true;
    } else if (Key == "filter" && (Value == "point" || Value == "linear")) {
      Img.LinearFilter = Value == "linear";
    } else if (Key == "address" && is_contained(Modes, Value)) {
      Img.Address = unsigned(find(Modes, Value) - std::begin(Modes));
    } else if (Key == "read" && (Value == "element" || Value == "normalized")) {
      Img.NormalizedRead = Value == "normalized";
    } else {
      return createStringError(
          "unknown option '%s' (expected filter=point|linear, "
          "address=clamp|wrap|mirror|border, normalized, or "
          "read=element|normalized)",
          O.str().c_str());
    }
    if (Img.IsSurface && Key != "address")
      return createStringError("a surface takes no '%s' option",
                               O.str().c_str());
  }
  Arg.Kind = ArgSpec::Image;
  return Error::success();
}

Expected<ArgSpec> ptxjit::driver::parseArgSpec(StringRef Spec) {
  Spec = Spec.trim();
  ArgSpec Arg;
  Arg.Text = Spec.str();
  if (Spec.empty())
    return createStringError("empty SPEC");

  // NAME=TYPE[...]: a name never parses as a literal, so this is not
  // ambiguous with a scalar.
  StringRef Name;
  StringRef Unnamed = Spec;
  StringRef Ident =
      Spec.take_while([](char C) { return isAlnum(C) || C == '_'; });
  StringRef AfterIdent = Spec.drop_front(Ident.size()).ltrim();
  if (!Ident.empty() && !isDigit(Ident.front()) &&
      AfterIdent.consume_front("=")) {
    Name = Ident;
    Unnamed = AfterIdent.ltrim();
  }
  StringRef Head = Unnamed.take_while(isAlnum);
  StringRef Rest = Unnamed.drop_front(Head.size());
  if (const ImageKind *Kind = findImageKind(Head)) {
    if (Error E = parseImage(*Kind, Rest, Arg))
      return std::move(E);
    Arg.Buf.Name = Name.str();
    return Arg;
  }
  if (std::optional<ElementType> Ty = parseElementType(Head)) {
    Expected<BufferSpec> Buf = parseBuffer(*Ty, Rest);
    if (!Buf)
      return Buf.takeError();
    Arg.Kind = ArgSpec::Buffer;
    Arg.Buf = std::move(*Buf);
    Arg.Buf.Name = Name.str();
    return Arg;
  }
  if (!Name.empty())
    return createStringError("expected a buffer 'TYPE[COUNT]' after '%s=', "
                             "found '%s' (only buffers take a name)",
                             Name.str().c_str(), Unnamed.str().c_str());
  if (!Head.empty() && Rest.starts_with("["))
    return createStringError("unknown element type '%s' (expected one of %s)",
                             Head.str().c_str(),
                             getElementTypeNameList().str().c_str());

  Expected<ScalarLiteral> Value = parseScalarLiteral(Spec);
  if (!Value)
    return Value.takeError();
  Arg.Kind = ArgSpec::Scalar;
  Arg.Value = std::move(*Value);
  return Arg;
}
