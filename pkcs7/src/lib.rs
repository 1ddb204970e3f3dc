//! hiera-eyaml's PKCS7 encryptor: the `ENC[PKCS7,...]` blocks of eyaml files
//! are CMS (PKCS #7) EnvelopedData, their content key encrypted to an RSA key
//! with PKCS #1 v1.5 and their content with AES-256-CBC, as Ruby's
//! `OpenSSL::PKCS7.encrypt` makes them.
//!
//! The crypto is RustCrypto's; this crate only puts it together the way
//! hiera-eyaml 3.3.0 does, and words its errors as Ruby's OpenSSL binding
//! words them, since Puppet prints them in its own message. It knows nothing
//! of Hiera: reading key files is the caller's.

use cms::content_info::ContentInfo;
use cms::enveloped_data::{
    EncryptedContentInfo, EnvelopedData, KeyTransRecipientInfo, RecipientIdentifier, RecipientInfo,
};
use der::asn1::{ObjectIdentifier, OctetString};
use der::{Decode, DecodePem, Encode};
use rsa::pkcs1::{DecodeRsaPrivateKey, DecodeRsaPublicKey, EncodeRsaPrivateKey};
use rsa::pkcs8::{DecodePrivateKey, DecodePublicKey};
use rsa::{Pkcs1v15Encrypt, RsaPrivateKey, RsaPublicKey};
use std::fmt;
use x509_cert::Certificate;

const ID_DATA: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.7.1");
const ID_ENVELOPED_DATA: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.7.3");
const RSA_ENCRYPTION: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.1");
const AES_128_CBC: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.1.2");
const AES_192_CBC: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.1.22");
const AES_256_CBC: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.1.42");

/// What went wrong, worded as Ruby's OpenSSL binding words it
/// (`Neither PUB key nor PRIV key: unsupported`, `bad decrypt`...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error(String);

impl Error {
    fn new(message: &str) -> Error {
        Error(message.to_string())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

/// An RSA key as `OpenSSL::PKey::RSA.new` reads it: PEM or DER, PKCS #1 or
/// PKCS #8, private or public (a public key reads, and cannot decrypt).
pub struct PrivateKey(Option<RsaPrivateKey>);

impl PrivateKey {
    /// Reads a key file's bytes.
    pub fn from_pem(bytes: &[u8]) -> Result<PrivateKey, Error> {
        let text = std::str::from_utf8(bytes).ok();
        let private = text
            .and_then(|t| RsaPrivateKey::from_pkcs1_pem(t).ok().or_else(|| RsaPrivateKey::from_pkcs8_pem(t).ok()))
            .or_else(|| RsaPrivateKey::from_pkcs1_der(bytes).ok())
            .or_else(|| RsaPrivateKey::from_pkcs8_der(bytes).ok());
        if let Some(key) = private {
            return Ok(PrivateKey(Some(key)));
        }
        let public = text
            .is_some_and(|t| RsaPublicKey::from_pkcs1_pem(t).is_ok() || RsaPublicKey::from_public_key_pem(t).is_ok())
            || RsaPublicKey::from_pkcs1_der(bytes).is_ok()
            || RsaPublicKey::from_public_key_der(bytes).is_ok();
        if public {
            Ok(PrivateKey(None))
        } else {
            Err(Error::new("Neither PUB key nor PRIV key: unsupported"))
        }
    }
}

/// An X.509 certificate as `OpenSSL::X509::Certificate.new` reads it (PEM or DER).
pub struct PublicKey(Certificate);

impl PublicKey {
    /// Reads a certificate file's bytes.
    pub fn from_pem(bytes: &[u8]) -> Result<PublicKey, Error> {
        let cert = std::str::from_utf8(bytes)
            .ok()
            .and_then(|t| Certificate::from_pem(t).ok())
            .or_else(|| Certificate::from_der(bytes).ok());
        cert.map(PublicKey).ok_or_else(|| Error::new("PEM_read_bio_X509: no start line"))
    }

    fn rsa(&self) -> Result<RsaPublicKey, Error> {
        let spki = self.0.tbs_certificate.subject_public_key_info.to_der().map_err(|_| Error::new("unsupported"))?;
        RsaPublicKey::from_public_key_der(&spki).map_err(|_| Error::new("unsupported"))
    }
}

/// A block's base64 as hiera-eyaml's `Encryptor.decode` reads it (Ruby's
/// `Base64.decode64`, which never fails): characters outside the alphabet
/// are skipped, decoding stops at padding, and a last group of one
/// character is dropped.
pub fn decode64(text: &str) -> Vec<u8> {
    use base64::Engine as _;
    let mut clean: Vec<u8> = text
        .bytes()
        .take_while(|&b| b != b'=')
        .filter(|b| b.is_ascii_alphanumeric() || *b == b'+' || *b == b'/')
        .collect();
    if clean.len() % 4 == 1 {
        clean.pop();
    }
    let engine = base64::engine::GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        base64::engine::GeneralPurposeConfig::new()
            .with_decode_padding_mode(base64::engine::DecodePaddingMode::Indifferent)
            .with_decode_allow_trailing_bits(true),
    );
    engine.decode(clean).unwrap_or_default()
}

/// A block as `eyaml encrypt -o string` writes it: `ENC[PKCS7,<base64 of der>]`
/// (`Encryptor.encode` is Ruby's `Base64.strict_encode64`).
pub fn block(der: &[u8]) -> String {
    use base64::Engine as _;
    format!("ENC[PKCS7,{}]", base64::engine::general_purpose::STANDARD.encode(der))
}

/// Decrypts a block's DER (`OpenSSL::PKCS7.new(der).decrypt(key, cert)`):
/// the content of the recipient that `cert` names.
pub fn decrypt(der: &[u8], key: &PrivateKey, cert: &PublicKey) -> Result<Vec<u8>, Error> {
    // OpenSSL reads a DER prefix and ignores what follows it; when DER fails it
    // tries PEM, whose error ("no start line") is the one Ruby reports.
    let unparsable = || Error::new("Could not parse the PKCS7: no start line");
    let mut reader = der::SliceReader::new(der).map_err(|_| unparsable())?;
    let info = ContentInfo::decode(&mut reader).map_err(|_| unparsable())?;
    let envelope = if info.content_type == ID_ENVELOPED_DATA {
        info.content.decode_as::<EnvelopedData>().map_err(|_| unparsable())?
    } else {
        return Err(Error::new("wrong content type"));
    };
    // What fails in OpenSSL's `PKCS7_dataDecode` (no recipient for the
    // certificate, a cipher it cannot set up) is followed by
    // `PKCS7_decrypt`'s own error, the last one, which is what Ruby reports.
    let decrypt_error = || Error::new("decrypt error");
    let issuer = &cert.0.tbs_certificate.issuer;
    let serial = &cert.0.tbs_certificate.serial_number;
    let recipient = envelope
        .recip_infos
        .0
        .iter()
        .find_map(|ri| match ri {
            RecipientInfo::Ktri(k) => match &k.rid {
                RecipientIdentifier::IssuerAndSerialNumber(is)
                    if &is.issuer == issuer && &is.serial_number == serial =>
                {
                    Some(k)
                }
                _ => None,
            },
            _ => None,
        })
        .ok_or_else(decrypt_error)?;
    let Some(private) = &key.0 else { return Err(decrypt_error()) };
    // OpenSSL answers a wrong key with a random content key (against
    // Bleichenbacher's attack), which then fails the padding check.
    let bad_decrypt = || Error::new("bad decrypt");
    let content_key = private.decrypt(Pkcs1v15Encrypt, recipient.enc_key.as_bytes()).map_err(|_| bad_decrypt())?;
    let content = &envelope.encrypted_content;
    let iv = content
        .content_enc_alg
        .parameters
        .as_ref()
        .and_then(|p| p.decode_as::<OctetString>().ok())
        .ok_or_else(decrypt_error)?;
    let data = content.encrypted_content.as_ref().map(|c| c.as_bytes()).unwrap_or_default();
    let oid = content.content_enc_alg.oid;
    let plain = if oid == AES_256_CBC {
        cbc_decrypt::<aes::Aes256>(&content_key, iv.as_bytes(), data)
    } else if oid == AES_192_CBC {
        cbc_decrypt::<aes::Aes192>(&content_key, iv.as_bytes(), data)
    } else if oid == AES_128_CBC {
        cbc_decrypt::<aes::Aes128>(&content_key, iv.as_bytes(), data)
    } else {
        return Err(decrypt_error());
    };
    plain.ok_or_else(bad_decrypt)
}

fn cbc_decrypt<C>(key: &[u8], iv: &[u8], data: &[u8]) -> Option<Vec<u8>>
where
    C: aes::cipher::BlockDecryptMut + aes::cipher::BlockCipher + aes::cipher::KeyInit,
{
    use aes::cipher::{block_padding::Pkcs7, BlockDecryptMut, KeyIvInit};
    let decryptor = cbc::Decryptor::<C>::new_from_slices(key, iv).ok()?;
    decryptor.decrypt_padded_vec_mut::<Pkcs7>(data).ok()
}

/// Encrypts `plain` to the certificate's key as `eyaml encrypt` does
/// (`OpenSSL::PKCS7.encrypt([cert], plain, AES-256-CBC, BINARY).to_der`),
/// with a fresh content key and IV from `rng`.
pub fn encrypt(plain: &[u8], cert: &PublicKey, rng: &mut impl rand_core::CryptoRngCore) -> Result<Vec<u8>, Error> {
    use aes::cipher::{block_padding::Pkcs7, BlockEncryptMut, KeyIvInit};
    let fail = |_| Error::new("encrypt error");
    let mut content_key = [0u8; 32];
    let mut iv = [0u8; 16];
    rng.fill_bytes(&mut content_key);
    rng.fill_bytes(&mut iv);
    let sealed =
        cbc::Encryptor::<aes::Aes256>::new(&content_key.into(), &iv.into()).encrypt_padded_vec_mut::<Pkcs7>(plain);
    let enc_key = cert.rsa()?.encrypt(rng, Pkcs1v15Encrypt, &content_key).map_err(|_| Error::new("encrypt error"))?;
    let tbs = &cert.0.tbs_certificate;
    let recipient = KeyTransRecipientInfo {
        version: cms::content_info::CmsVersion::V0,
        rid: RecipientIdentifier::IssuerAndSerialNumber(cms::cert::IssuerAndSerialNumber {
            issuer: tbs.issuer.clone(),
            serial_number: tbs.serial_number.clone(),
        }),
        key_enc_alg: spki_algorithm(RSA_ENCRYPTION, Some(der::asn1::Null.into())),
        enc_key: OctetString::new(enc_key).map_err(fail)?,
    };
    let envelope = EnvelopedData {
        version: cms::content_info::CmsVersion::V0,
        originator_info: None,
        recip_infos: cms::enveloped_data::RecipientInfos(
            der::asn1::SetOfVec::try_from(vec![RecipientInfo::Ktri(recipient)]).map_err(fail)?,
        ),
        encrypted_content: EncryptedContentInfo {
            content_type: ID_DATA,
            content_enc_alg: spki_algorithm(
                AES_256_CBC,
                Some(der::Any::encode_from(&OctetString::new(iv.to_vec()).map_err(fail)?).map_err(fail)?),
            ),
            encrypted_content: Some(OctetString::new(sealed).map_err(fail)?),
        },
        unprotected_attrs: None,
    };
    let info =
        ContentInfo { content_type: ID_ENVELOPED_DATA, content: der::Any::encode_from(&envelope).map_err(fail)? };
    info.to_der().map_err(fail)
}

fn spki_algorithm(oid: ObjectIdentifier, parameters: Option<der::Any>) -> x509_cert::spki::AlgorithmIdentifierOwned {
    x509_cert::spki::AlgorithmIdentifierOwned { oid, parameters }
}

/// A key pair as `eyaml createkeys` writes it: the private key as PKCS #1 PEM
/// (`BEGIN RSA PRIVATE KEY`), and a self-signed certificate for its public
/// key with an empty subject and serial number 1, valid for 50 years from
/// `now` (seconds since 1970).
pub struct KeyPair {
    /// `private_key.pkcs7.pem`.
    pub private_pem: String,
    /// `public_key.pkcs7.pem`.
    pub public_pem: String,
}

/// A key pair for a private key made elsewhere (the browser's WebCrypto
/// makes keys far faster than this crate can in WebAssembly), given as
/// PKCS #8 DER.
pub fn key_pair_from_pkcs8(der: &[u8], now: u64) -> Result<KeyPair, Error> {
    let key =
        RsaPrivateKey::from_pkcs8_der(der).map_err(|_| Error::new("Neither PUB key nor PRIV key: unsupported"))?;
    key_pair(key, now)
}

fn key_pair(key: RsaPrivateKey, now: u64) -> Result<KeyPair, Error> {
    use rsa::pkcs8::EncodePublicKey;
    use std::time::Duration;
    use x509_cert::builder::{Builder, CertificateBuilder, Profile};
    use x509_cert::der::EncodePem;
    use x509_cert::time::{Time, Validity};
    let fail = |_| Error::new("certificate error");
    let time = |secs: u64| {
        der::asn1::GeneralizedTime::from_unix_duration(Duration::from_secs(secs)).map(Time::GeneralTime).map_err(fail)
    };
    let fifty_years = 50 * 365 * 24 * 60 * 60;
    let validity = Validity { not_before: time(now)?, not_after: time(now + fifty_years)? };
    let spki_der = key.to_public_key().to_public_key_der().map_err(|_| Error::new("certificate error"))?;
    let spki = x509_cert::spki::SubjectPublicKeyInfoOwned::from_der(spki_der.as_bytes()).map_err(fail)?;
    let signer = rsa::pkcs1v15::SigningKey::<sha2::Sha256>::new(key.clone());
    let serial = x509_cert::serial_number::SerialNumber::from(1u32);
    let subject = x509_cert::name::Name::default();
    let builder = CertificateBuilder::new(Profile::Root, serial, validity, subject, spki, &signer)
        .map_err(|_| Error::new("certificate error"))?;
    let cert = builder.build::<rsa::pkcs1v15::Signature>().map_err(|_| Error::new("certificate error"))?;
    let public_pem = cert.to_pem(der::pem::LineEnding::LF).map_err(fail)?;
    let private_pem = key.to_pkcs1_pem(rsa::pkcs8::LineEnding::LF).map_err(|_| Error::new("key error"))?.to_string();
    Ok(KeyPair { private_pem, public_pem })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair() -> KeyPair {
        // 1024 bits keeps the test fast; the format is the same.
        key_pair(RsaPrivateKey::new(&mut rand_core::OsRng, 1024).unwrap(), 1_790_000_000).unwrap()
    }

    #[test]
    fn what_it_encrypts_it_decrypts() {
        let keys = pair();
        assert!(keys.private_pem.starts_with("-----BEGIN RSA PRIVATE KEY-----\n"));
        assert!(keys.public_pem.starts_with("-----BEGIN CERTIFICATE-----\n"));
        let key = PrivateKey::from_pem(keys.private_pem.as_bytes()).unwrap();
        let cert = PublicKey::from_pem(keys.public_pem.as_bytes()).unwrap();
        for plain in ["", "s3cret", "a longer text of more than one block, é and all"] {
            let der = encrypt(plain.as_bytes(), &cert, &mut rand_core::OsRng).unwrap();
            assert_eq!(decrypt(&der, &key, &cert).unwrap(), plain.as_bytes());
        }
    }

    #[test]
    fn decodes_base64_as_ruby_does() {
        assert_eq!(decode64("aGVsbG8gd29ybGQ="), b"hello world");
        assert_eq!(decode64("aGVs bG8*"), b"hello");
        assert_eq!(decode64("aGVsb"), b"hel");
        assert_eq!(decode64("aG=Vs"), b"h");
        assert_eq!(block(b"hello"), "ENC[PKCS7,aGVsbG8=]");
    }

    #[test]
    fn errors_are_worded_as_openssl_words_them() {
        let (a, b) = (pair(), pair());
        let key_a = PrivateKey::from_pem(a.private_pem.as_bytes()).unwrap();
        let cert_a = PublicKey::from_pem(a.public_pem.as_bytes()).unwrap();
        let cert_b = PublicKey::from_pem(b.public_pem.as_bytes()).unwrap();
        let message = |r: Result<Vec<u8>, Error>| r.unwrap_err().to_string();
        assert_eq!(
            PrivateKey::from_pem(b"garbage").err().unwrap().to_string(),
            "Neither PUB key nor PRIV key: unsupported"
        );
        assert_eq!(PublicKey::from_pem(b"").err().unwrap().to_string(), "PEM_read_bio_X509: no start line");
        assert_eq!(message(decrypt(b"hello world", &key_a, &cert_a)), "Could not parse the PKCS7: no start line");
        let der = encrypt(b"x", &cert_b, &mut rand_core::OsRng).unwrap();
        // Both certificates name the same (empty) issuer and serial number 1.
        assert_eq!(message(decrypt(&der, &key_a, &cert_a)), "bad decrypt");
        assert_eq!(
            message(decrypt(&der[..der.len() / 2], &key_a, &cert_a)),
            "Could not parse the PKCS7: no start line"
        );
    }
}
