"""Independent verdicts for the PII detector tests: reads lines "KIND<TAB>VALUE" on stdin and
prints "KIND<TAB>VALUE<TAB>1" or "...<TAB>0", from Python's standard library and the
published rules (Luhn; ISO 13616 mod 97 with the registry's lengths; the SSA's SSN ranges;
ipaddress), written apart from the C++ scanners."""
import email.utils
import ipaddress
import re
import sys

# IBAN lengths of the countries the tests use (SWIFT IBAN Registry).
IBAN_LENGTHS = {"GB": 22, "DE": 22, "FR": 27, "NL": 18, "BE": 16, "CH": 21, "ES": 24,
                "IT": 27, "NO": 15, "PL": 28}


def luhn(digits):
    if not digits.isdigit():
        return False
    total = 0
    for position, char in enumerate(reversed(digits)):
        d = int(char)
        if position % 2 == 1:
            d = d * 2 - 9 if d * 2 > 9 else d * 2
        total += d
    return total % 10 == 0


def card(value):
    digits = re.sub(r"[ -]", "", value)
    return 13 <= len(digits) <= 19 and luhn(digits)


def iban(value):
    compact = value.replace(" ", "")
    if IBAN_LENGTHS.get(compact[:2]) != len(compact):
        return False
    if not re.fullmatch(r"[A-Z]{2}[0-9]{2}[A-Z0-9]+", compact):
        return False
    rearranged = compact[4:] + compact[:4]
    return int("".join(str(int(c, 36)) for c in rearranged)) % 97 == 1


def ip(value):
    try:
        address = ipaddress.ip_address(value)
    except ValueError:
        return False
    if address.version == 6 and "%" in value:
        return False
    if address.version == 6 and "." not in value:
        # winnow's documented extra rules: "::1"-like and "a::b"-like runs are not taken;
        # an address needs four hex digits, one of them decimal.
        hex_digits = [c for c in value if c in "0123456789abcdefABCDEF"]
        if len(hex_digits) < 4 or not any(c.isdigit() for c in hex_digits):
            return False
        # And one that ends in "::" needs two groups before it ("2004::" is prose).
        if value.endswith("::") and value.count(":") < 3:
            return False
    return True


def ssn(value):
    match = re.fullmatch(r"(\d{3})-(\d{2})-(\d{4})", value)
    if not match:
        return False
    area, group, serial = (int(x) for x in match.groups())
    return area not in (0, 666) and area < 900 and group != 0 and serial != 0


def email_address(value):
    name, address = email.utils.parseaddr(value)
    if address != value or name:
        return False
    local, _, domain = value.rpartition("@")
    labels = domain.split(".")
    return (re.fullmatch(r"[A-Za-z0-9_%+-]+(\.[A-Za-z0-9_%+-]+)*", local) is not None
            and len(labels) >= 2
            and all(re.fullmatch(r"[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?", l) for l in labels)
            and re.fullmatch(r"[A-Za-z]{2,}", labels[-1]) is not None)


CHECKS = {"CREDIT_CARD": card, "IBAN_CODE": iban, "IP_ADDRESS": ip, "US_SSN": ssn,
          "EMAIL_ADDRESS": email_address, "LUHN": luhn}

for line in sys.stdin:
    kind, value = line.rstrip("\n").split("\t", 1)
    print(f"{kind}\t{value}\t{int(bool(CHECKS[kind](value)))}")
