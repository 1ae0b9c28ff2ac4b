package storage

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// presigner makes SigV4 query-signed GET links without the SDK's request
// pipeline, which profiling showed cost a fifth of the CPU of the review
// queue. It signs exactly what the SDK would for a path-style GET with
// UNSIGNED-PAYLOAD and only the host header signed.
type presigner struct {
	endpoint  *url.URL
	region    string
	bucket    string
	accessKey string
	secretKey string

	mu      sync.Mutex
	keyDate string // the day signingKey belongs to
	key     []byte
}

func newPresigner(endpoint, region, bucket, accessKey, secretKey string) (*presigner, error) {
	u, err := url.Parse(endpoint)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("S3_ENDPOINT %q is not a URL", endpoint)
	}
	return &presigner{endpoint: u, region: region, bucket: bucket, accessKey: accessKey, secretKey: secretKey}, nil
}

func hmacSHA256(key []byte, data string) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(data))
	return h.Sum(nil)
}

// signingKey is derived once per day.
func (p *presigner) signingKey(date string) []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.keyDate != date {
		k := hmacSHA256([]byte("AWS4"+p.secretKey), date)
		k = hmacSHA256(k, p.region)
		k = hmacSHA256(k, "s3")
		p.key, p.keyDate = hmacSHA256(k, "aws4_request"), date
	}
	return p.key
}

// uriEncode is SigV4's encoding: every byte but A-Z a-z 0-9 - _ . ~ (and /
// when keepSlash) as %XX in upper case.
func uriEncode(s string, keepSlash bool) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '-', c == '_', c == '.', c == '~':
			b.WriteByte(c)
		case c == '/' && keepSlash:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// get returns a link to GET key until now+ttl, with extra response
// parameters (e.g. response-content-disposition) signed in.
func (p *presigner) get(key string, ttl time.Duration, now time.Time, extra map[string]string) string {
	now = now.UTC()
	amzDate := now.Format("20060102T150405Z")
	date := amzDate[:8]
	scope := date + "/" + p.region + "/s3/aws4_request"
	path := strings.TrimRight(p.endpoint.Path, "/") + "/" + uriEncode(p.bucket, false) + "/" + uriEncode(key, true)

	params := map[string]string{
		"X-Amz-Algorithm":     "AWS4-HMAC-SHA256",
		"X-Amz-Credential":    p.accessKey + "/" + scope,
		"X-Amz-Date":          amzDate,
		"X-Amz-Expires":       strconv.Itoa(int(ttl.Seconds())),
		"X-Amz-SignedHeaders": "host",
	}
	for k, v := range extra {
		params[k] = v
	}
	names := make([]string, 0, len(params))
	for k := range params {
		names = append(names, k)
	}
	sort.Strings(names)
	var q strings.Builder
	for i, k := range names {
		if i > 0 {
			q.WriteByte('&')
		}
		q.WriteString(uriEncode(k, false))
		q.WriteByte('=')
		q.WriteString(uriEncode(params[k], false))
	}
	canonicalQuery := q.String()
	canonicalRequest := "GET\n" + path + "\n" + canonicalQuery + "\nhost:" + p.endpoint.Host + "\n\nhost\nUNSIGNED-PAYLOAD"
	sum := sha256.Sum256([]byte(canonicalRequest))
	toSign := "AWS4-HMAC-SHA256\n" + amzDate + "\n" + scope + "\n" + hex.EncodeToString(sum[:])
	sig := hex.EncodeToString(hmacSHA256(p.signingKey(date), toSign))
	return p.endpoint.Scheme + "://" + p.endpoint.Host + path + "?" + canonicalQuery + "&X-Amz-Signature=" + sig
}
