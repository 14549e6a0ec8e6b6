//===- Npy.cpp - NumPy .npy headers ---------------------------------------===//
//
// The header is the repr() of a Python dict, e.g.
//   {'descr': '<f4', 'fortran_order': False, 'shape': (3,), }
// so a tiny parser for strings, True/False and tuples of integers is enough.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/Driver/Npy.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace ptxjit::driver;

static const char NpyMagic[] = "\x93NUMPY";
static constexpr size_t NpyMagicSize = 6;

uint64_t NpyHeader::getElementCount() const {
  uint64_t Count = 1;
  for (uint64_t Dim : Shape)
    Count *= Dim;
  return Count;
}

bool ptxjit::driver::hasNpyMagic(ArrayRef<uint8_t> File) {
  return toStringRef(File).starts_with(StringRef(NpyMagic, NpyMagicSize));
}

namespace {
/// Reads the header dict; each method consumes what it parsed from Text.
class HeaderDictParser {
  StringRef Text;

public:
  explicit HeaderDictParser(StringRef Text) : Text(Text) {}

  Error parse(NpyHeader &Header);

private:
  bool consume(StringRef Token) {
    Text = Text.ltrim();
    return Text.consume_front(Token);
  }

  Error expected(StringRef What) {
    return createStringError("malformed .npy header: expected %s at '%s'",
                             What.str().c_str(),
                             Text.take_front(20).str().c_str());
  }

  Expected<std::string> parseString() {
    Text = Text.ltrim();
    if (Text.empty() || (Text.front() != '\'' && Text.front() != '"'))
      return expected("a string");
    char Quote = Text.front();
    size_t End = Text.find(Quote, 1);
    if (End == StringRef::npos)
      return expected("the end of a string");
    std::string Result = Text.slice(1, End).str();
    Text = Text.drop_front(End + 1);
    return Result;
  }

  Expected<bool> parseBool() {
    if (consume("True"))
      return true;
    if (consume("False"))
      return false;
    return expected("True or False");
  }

  Error parseShape(SmallVectorImpl<uint64_t> &Shape) {
    if (!consume("("))
      return expected("a shape tuple");
    while (!consume(")")) {
      Text = Text.ltrim();
      StringRef Digits = Text.take_while(isDigit);
      uint64_t Dim;
      if (Digits.empty() || Digits.getAsInteger(10, Dim))
        return expected("a dimension");
      Shape.push_back(Dim);
      Text = Text.drop_front(Digits.size());
      if (!consume(",") && !Text.ltrim().starts_with(")"))
        return expected("',' or ')'");
    }
    return Error::success();
  }
};
} // namespace

Error HeaderDictParser::parse(NpyHeader &Header) {
  if (!consume("{"))
    return expected("'{'");
  bool HasDescr = false, HasOrder = false, HasShape = false;
  while (!consume("}")) {
    Expected<std::string> Key = parseString();
    if (!Key)
      return Key.takeError();
    if (!consume(":"))
      return expected("':'");
    if (*Key == "descr") {
      Expected<std::string> Descr = parseString();
      if (!Descr)
        return createStringError("unsupported .npy dtype: only plain numeric "
                                 "dtypes are (no structured arrays)");
      Header.Descr = *Descr;
      HasDescr = true;
    } else if (*Key == "fortran_order") {
      Expected<bool> Order = parseBool();
      if (!Order)
        return Order.takeError();
      Header.FortranOrder = *Order;
      HasOrder = true;
    } else if (*Key == "shape") {
      if (Error E = parseShape(Header.Shape))
        return E;
      HasShape = true;
    } else {
      return createStringError("malformed .npy header: unknown key '%s'",
                               Key->c_str());
    }
    if (!consume(",") && !Text.ltrim().starts_with("}"))
      return expected("',' or '}'");
  }
  if (!HasDescr || !HasOrder || !HasShape)
    return createStringError("malformed .npy header: it needs 'descr', "
                             "'fortran_order' and 'shape'");
  return Error::success();
}

Expected<NpyHeader> ptxjit::driver::parseNpyHeader(ArrayRef<uint8_t> File) {
  if (!hasNpyMagic(File))
    return createStringError("not a .npy file (no \\x93NUMPY magic string)");
  if (File.size() < NpyMagicSize + 2)
    return createStringError("truncated .npy header");
  NpyHeader Header;
  Header.MajorVersion = File[6];
  unsigned Minor = File[7];
  size_t LengthSize;
  if (Header.MajorVersion == 1 && Minor == 0)
    LengthSize = 2;
  else if ((Header.MajorVersion == 2 || Header.MajorVersion == 3) && Minor == 0)
    LengthSize = 4;
  else
    return createStringError("unsupported .npy version %u.%u",
                             Header.MajorVersion, Minor);
  size_t Start = NpyMagicSize + 2 + LengthSize;
  if (File.size() < Start)
    return createStringError("truncated .npy header");
  size_t Length = LengthSize == 2 ? support::endian::read16le(File.data() + 8)
                                  : support::endian::read32le(File.data() + 8);
  if (File.size() - Start < Length)
    return createStringError("truncated .npy header");
  Header.DataOffset = Start + Length;
  StringRef Dict(reinterpret_cast<const char *>(File.data() + Start), Length);
  if (Error E = HeaderDictParser(Dict).parse(Header))
    return std::move(E);
  return Header;
}

Expected<bool> ptxjit::driver::checkNpyDescr(StringRef Descr, ElementType Ty) {
  StringRef Wanted = getNpyDescr(Ty);
  auto Mismatch = [&] {
    return createStringError("the .npy file holds '%s' data, but the buffer "
                             "is %s (expected '%s')",
                             Descr.str().c_str(), getElementTypeName(Ty).data(),
                             Wanted.data());
  };
  if (Descr.size() < 2 || !StringRef("<>=|").contains(Descr.front()))
    return Mismatch();
  char Order = Descr.front();
  StringRef KindAndSize = Descr.drop_front();
  bool Matches = KindAndSize == Wanted.drop_front();
  if (Ty == ElementType::BF16)
    Matches |= KindAndSize == "u2";
  if (!Matches)
    return Mismatch();
  bool IsVoid = KindAndSize.front() == 'V';
  return Order == '>' && getElementSize(Ty) > 1 && !IsVoid;
}

void ptxjit::driver::writeNpyHeader(raw_ostream &OS, ElementType Ty,
                                    uint64_t Count) {
  std::string Dict =
      ("{'descr': '" + getNpyDescr(Ty) +
       "', 'fortran_order': False, 'shape': (" + Twine(Count) + ",), }")
          .str();
  // Magic, version and length take 10 bytes; the dict ends in '\n'.
  size_t Unpadded = 10 + Dict.size() + 1;
  Dict.append(alignTo(Unpadded, 64) - Unpadded, ' ');
  Dict += '\n';
  OS.write(NpyMagic, NpyMagicSize);
  OS << '\x01' << '\x00';
  char Length[2];
  support::endian::write16le(Length, static_cast<uint16_t>(Dict.size()));
  OS.write(Length, 2);
  OS << Dict;
}
