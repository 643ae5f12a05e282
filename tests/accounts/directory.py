"""A real OpenLDAP server (Debian's slapd) on loopback with users and groups, for the LDAP login tests.

python-ldap's slapdtest starts slapd with a temporary configuration on a free port; this adds the
schemas inetOrgPerson needs, a directory under pytest's tmp_path and, for StartTLS, a CA and a server
certificate for 127.0.0.1 made here with cryptography.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from slapdtest import SlapdObject

SUFFIX = "dc=example,dc=com"
PEOPLE = f"ou=people,{SUFFIX}"
GROUPS = f"ou=groups,{SUFFIX}"
# name → (password, groups)
USERS = {
    "lena": ("lena-ldap-1", ["tierscope-admins"]),
    "otto": ("otto-ldap-1", ["tierscope-viewers"]),
    "sam": ("sam-ldap-1", []),
}


class Slapd(SlapdObject):
    suffix = SUFFIX
    openldap_schema_files = ("core.ldif", "cosine.ldif", "inetorgperson.ldif")
    slapd_loglevel = "0"


def _ldif() -> str:
    entries = [
        f"dn: {SUFFIX}\nobjectClass: dcObject\nobjectClass: organization\ndc: example\no: Example\n",
        f"dn: {PEOPLE}\nobjectClass: organizationalUnit\nou: people\n",
        f"dn: {GROUPS}\nobjectClass: organizationalUnit\nou: groups\n",
    ]
    for name, (password, _) in USERS.items():
        entries.append(
            f"dn: uid={name},{PEOPLE}\nobjectClass: inetOrgPerson\nuid: {name}\ncn: {name.title()}\n"
            f"sn: {name.title()}\ngivenName: {name.title()}\nmail: {name}@example.com\nuserPassword: {password}\n"
        )
    for group in ("tierscope-admins", "tierscope-viewers"):
        members = [f"member: uid={name},{PEOPLE}" for name, (_, groups) in USERS.items() if group in groups]
        entries.append(f"dn: cn={group},{GROUPS}\nobjectClass: groupOfNames\ncn: {group}\n" + "\n".join(members) + "\n")
    return "\n".join(entries)


def make_certificates(directory: Path) -> tuple[Path, Path, Path]:
    """A self-signed CA and a server certificate for 127.0.0.1 it signed: (ca.pem, server.pem, server.key)."""
    now = dt.datetime.now(dt.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "tierscope test CA")])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name).public_key(ca_key.public_key())
          .serial_number(x509.random_serial_number()).not_valid_before(now - dt.timedelta(minutes=5))
          .not_valid_after(now + dt.timedelta(days=1))
          .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
          .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                                       data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                       crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
          .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    server = (x509.CertificateBuilder()
              .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")]))
              .issuer_name(ca_name).public_key(key.public_key()).serial_number(x509.random_serial_number())
              .not_valid_before(now - dt.timedelta(minutes=5)).not_valid_after(now + dt.timedelta(days=1))
              .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
                                                          x509.DNSName("localhost")]), critical=False)
              .sign(ca_key, hashes.SHA256()))
    paths = directory / "ca.pem", directory / "server.pem", directory / "server.key"
    paths[0].write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    paths[1].write_bytes(server.public_bytes(serialization.Encoding.PEM))
    paths[2].write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return paths


def start_directory(tmp_path: Path) -> tuple[Slapd, Path]:
    """slapd started and loaded; the caller stops it. Returns it and the CA file its certificate chains to."""
    ca, cert, key = make_certificates(tmp_path)
    Slapd.TMPDIR = str(tmp_path)
    server = Slapd()
    server.cafile, server.servercert, server.serverkey = str(ca), str(cert), str(key)
    server.start()
    try:
        server.ldapadd(_ldif())
    except BaseException:
        server.stop()
        raise
    return server, ca


def ldap_env(server: Slapd, **extra: str) -> dict[str, str]:
    """The environment a DBA team would set for this directory (docs/sso.md)."""
    return {
        "TIERSCOPE_LDAP_URI": server.ldap_uri,
        "TIERSCOPE_LDAP_BIND_DN": server.root_dn,
        "TIERSCOPE_LDAP_BIND_PASSWORD": server.root_pw,
        "TIERSCOPE_LDAP_USER_SEARCH_BASE": PEOPLE,
        "TIERSCOPE_LDAP_USER_FILTER": "(uid=%(user)s)",
        "TIERSCOPE_LDAP_GROUP_SEARCH_BASE": GROUPS,
        "TIERSCOPE_LDAP_ADMIN_GROUP": f"cn=tierscope-admins,{GROUPS}",
        **extra,
    }
