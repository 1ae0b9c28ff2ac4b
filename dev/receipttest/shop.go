package receipttest

import (
	"bytes"
	"crypto"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/emersion/go-msgauth/dkim"

	"hackdesk/internal/platform/receipts"
)

// DevShopDomain is the shop the dev stack plays: it signs sample receipts
// as this domain, with selector "dev".
const DevShopDomain = "shop.hackdesk.test"

// ShopKey is a shop's DKIM signing key.
type ShopKey struct {
	Domain, Selector string
	Key              ed25519.PrivateKey
}

// NewShopKey creates a new ed25519 key for domain and selector (both DNS
// names; they are lower-cased).
func NewShopKey(domain, selector string) (ShopKey, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return ShopKey{}, err
	}
	return shopKey(domain, selector, priv)
}

func shopKey(domain, selector string, key ed25519.PrivateKey) (ShopKey, error) {
	domain, selector = strings.ToLower(domain), strings.ToLower(selector)
	if !receipts.IsHostName(domain) {
		return ShopKey{}, fmt.Errorf("shop key: domain %q is not a host name", domain)
	}
	if !receipts.IsHostName(selector) {
		return ShopKey{}, fmt.Errorf("shop key: selector %q is not a DNS name", selector)
	}
	return ShopKey{Domain: domain, Selector: selector, Key: key}, nil
}

// LoadOrCreateShopKey reads a PEM (PKCS#8) ed25519 key from path, or, when
// the file does not exist, creates a key and writes it there (mode 0600,
// creating the directory).
func LoadOrCreateShopKey(path, domain, selector string) (ShopKey, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return createShopKey(path, domain, selector)
	}
	if err != nil {
		return ShopKey{}, err
	}
	block, _ := pem.Decode(b)
	if block == nil || block.Type != "PRIVATE KEY" {
		return ShopKey{}, fmt.Errorf("shop key %s: no PRIVATE KEY PEM block", path)
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return ShopKey{}, fmt.Errorf("shop key %s: %w", path, err)
	}
	priv, ok := k.(ed25519.PrivateKey)
	if !ok {
		return ShopKey{}, fmt.Errorf("shop key %s: %T, want an ed25519 key", path, k)
	}
	return shopKey(domain, selector, priv)
}

func createShopKey(path, domain, selector string) (ShopKey, error) {
	k, err := NewShopKey(domain, selector)
	if err != nil {
		return ShopKey{}, err
	}
	der, err := x509.MarshalPKCS8PrivateKey(k.Key)
	if err != nil {
		return ShopKey{}, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return ShopKey{}, err
	}
	// O_EXCL: if another process created the key meanwhile, use theirs.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return LoadOrCreateShopKey(path, domain, selector)
	}
	if err != nil {
		return ShopKey{}, err
	}
	err = pem.Encode(f, &pem.Block{Type: "PRIVATE KEY", Bytes: der})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return ShopKey{}, fmt.Errorf("shop key %s: %w", path, err)
	}
	return k, nil
}

// TXTRecord returns the key's DNS TXT record: its name
// ("dev._domainkey.shop.hackdesk.test") and value ("v=DKIM1; k=ed25519;
// p=<base64 public key>").
func (k ShopKey) TXTRecord() (name, value string) {
	pub := k.Key.Public().(ed25519.PublicKey)
	return k.Selector + "._domainkey." + k.Domain,
		"v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(pub)
}

// WriteTXTFile writes the keys' TXT records to path in TXTFile's format
// (mode 0600).
func WriteTXTFile(path string, keys ...ShopKey) error {
	var b bytes.Buffer
	b.WriteString("# DKIM public keys, one TXT record a line: name, then value (receipts.TXTFile).\n")
	for _, k := range keys {
		name, value := k.TXTRecord()
		fmt.Fprintf(&b, "%s %s\n", name, value)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(b.Bytes())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// signedFields are the header fields Sign covers, when present.
var signedFields = []string{"From", "To", "Subject", "Date", "Message-ID", "Content-Type", "MIME-Version", "Content-Transfer-Encoding"}

// Sign returns raw, with CRLF line endings, preceded by a DKIM-Signature
// field (ed25519-sha256, relaxed/relaxed) covering those of From, To,
// Subject, Date, Message-ID, Content-Type, MIME-Version and
// Content-Transfer-Encoding that are present. raw must have a header, an
// empty line and a From field.
func (k ShopKey) Sign(raw []byte) ([]byte, error) {
	if len(k.Key) != ed25519.PrivateKeySize {
		return nil, errors.New("dkim sign: no key")
	}
	raw = crlf(raw)
	present, err := headerNames(raw)
	if err != nil {
		return nil, fmt.Errorf("dkim sign: %w", err)
	}
	has := func(name string) bool {
		return slices.ContainsFunc(present, func(p string) bool { return strings.EqualFold(p, name) })
	}
	var keys []string
	for _, name := range signedFields {
		if has(name) {
			keys = append(keys, name)
		}
	}
	if !has("From") {
		return nil, errors.New("dkim sign: no From field")
	}
	s, err := dkim.NewSigner(&dkim.SignOptions{
		Domain:                 k.Domain,
		Selector:               k.Selector,
		Signer:                 k.Key,
		Hash:                   crypto.SHA256,
		HeaderCanonicalization: dkim.CanonicalizationRelaxed,
		BodyCanonicalization:   dkim.CanonicalizationRelaxed,
		HeaderKeys:             keys,
	})
	if err != nil {
		return nil, fmt.Errorf("dkim sign: %w", err)
	}
	if _, err := s.Write(raw); err != nil {
		s.Close()
		return nil, fmt.Errorf("dkim sign: %w", err)
	}
	if err := s.Close(); err != nil {
		return nil, fmt.Errorf("dkim sign: %w", err)
	}
	return append([]byte(s.Signature()), raw...), nil
}

// crlf turns bare LFs into CRLFs: mail travels with CRLF line endings.
func crlf(raw []byte) []byte {
	return bytes.ReplaceAll(bytes.ReplaceAll(raw, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n"))
}

// headerNames returns the names of a CRLF message's header fields, up to
// the first empty line.
func headerNames(raw []byte) ([]string, error) {
	var names []string
	for line := range strings.SplitSeq(string(raw), "\r\n") {
		switch {
		case line == "":
			return names, nil
		case line[0] == ' ' || line[0] == '\t':
			// a continuation line
		default:
			name, _, _ := strings.Cut(line, ":")
			names = append(names, strings.TrimSpace(name))
		}
	}
	return nil, errors.New("no empty line after the header")
}
