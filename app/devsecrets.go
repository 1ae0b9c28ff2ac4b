package app

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"hackdesk/dev/receipttest"
	"hackdesk/internal/platform/config"
)

// DevShop is the local stack's stand-in campus shop: its DKIM key (domain
// shop.hackdesk.test, selector dev) and the inbound-email provider's
// webhook key, both kept under the data directory.
type DevShop struct {
	Key        receipttest.ShopKey
	WebhookKey string
	TXTFile    string // the shop's DKIM record, in DKIM_TXT_FILE's format
}

// devSecretsDir holds the generated dev secrets (0700, inside .data).
func devSecretsDir(dataDir string) string { return filepath.Join(dataDir, "secrets") }

// LoadDevShop reads, creating on first use, the dev shop's key, the webhook
// key and the DKIM record file under dataDir.
func LoadDevShop(dataDir string) (DevShop, error) {
	dir := devSecretsDir(dataDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return DevShop{}, err
	}
	key, err := receipttest.LoadOrCreateShopKey(filepath.Join(dir, "shop-dkim.pem"), receipttest.DevShopDomain, "dev")
	if err != nil {
		return DevShop{}, err
	}
	hook, err := loadOrCreateSecret(filepath.Join(dir, "webhook.key"))
	if err != nil {
		return DevShop{}, err
	}
	txt := filepath.Join(dir, "dkim.txt")
	if err := receipttest.WriteTXTFile(txt, key); err != nil {
		return DevShop{}, err
	}
	return DevShop{Key: key, WebhookKey: hook, TXTFile: txt}, nil
}

// devSecrets fills in the secrets `hackdesk dev` needs that the environment
// did not set: SIGNING_KEY, TEMPORAL_PAYLOAD_KEYS, WEBHOOK_SIGNING_KEY, and the dev shop as a
// receipt sender with its DKIM record in DKIM_TXT_FILE. They are generated
// once and kept under the data directory, so links and keys survive
// restarts.
func devSecrets(cfg *config.Config, dataDir string) error {
	if cfg.SigningKey == "" {
		k, err := loadOrCreateSecret(filepath.Join(devSecretsDir(dataDir), "signing.key"))
		if err != nil {
			return err
		}
		cfg.SigningKey = k
	}
	if cfg.TemporalPayloadKeys == "" {
		k, err := loadOrCreateSecret(filepath.Join(devSecretsDir(dataDir), "payload.key"))
		if err != nil {
			return err
		}
		cfg.TemporalPayloadKeys = "dev:" + k
	}
	shop, err := LoadDevShop(dataDir)
	if err != nil {
		return err
	}
	if cfg.WebhookSigningKey == "" {
		cfg.WebhookSigningKey = shop.WebhookKey
	}
	if len(cfg.ReceiptSenderDomains) == 0 {
		cfg.ReceiptSenderDomains = []string{receipttest.DevShopDomain}
	}
	if cfg.DKIMTXTFile == "" {
		cfg.DKIMTXTFile = shop.TXTFile
	}
	return nil
}

// loadOrCreateSecret reads a base64 secret of 32 random bytes from path,
// writing a new one (0600) when the file does not exist.
func loadOrCreateSecret(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err == nil {
		return strings.TrimSpace(string(b)), nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", err
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return "", err
	}
	v := base64.StdEncoding.EncodeToString(raw)
	return v, os.WriteFile(path, []byte(v+"\n"), 0o600)
}
