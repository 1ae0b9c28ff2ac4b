package storage

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/smithy-go/encoding/httpbinding"
)

// presigner makes SigV4 query-signed GET links with the SDK's v4 signer but
// without the S3 client's request pipeline (endpoint resolution, ARN
// look-ups, serializers), which profiling showed cost a fifth of the CPU of
// the review queue. It builds the same path-style GET the S3 client would
// (minus its x-id=GetObject marker) and signs it with UNSIGNED-PAYLOAD and
// only the host header signed, as the S3 presign client does.
type presigner struct {
	scheme   string
	host     string
	basePath string // endpoint path without its trailing slash
	bucket   string
	region   string
	creds    aws.CredentialsProvider
	signer   *v4.Signer
}

func newPresigner(endpoint, region, bucket string, creds aws.CredentialsProvider) (*presigner, error) {
	u, err := url.Parse(endpoint)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("S3_ENDPOINT %q is not a URL", endpoint)
	}
	return &presigner{
		scheme:   u.Scheme,
		host:     u.Host,
		basePath: strings.TrimRight(u.Path, "/"),
		bucket:   bucket,
		region:   region,
		creds:    creds,
		// S3 signs the path as sent: the key is escaped once, here, not
		// again by the signer.
		signer: v4.NewSigner(func(o *v4.SignerOptions) { o.DisableURIPathEscaping = true }),
	}, nil
}

// get returns a link to GET key from now until now+ttl, with extra response
// parameters (e.g. response-content-disposition) signed in.
func (p *presigner) get(ctx context.Context, key string, ttl time.Duration, now time.Time, extra map[string]string) (string, error) {
	creds, err := p.creds.Retrieve(ctx)
	if err != nil {
		return "", fmt.Errorf("storage: credentials: %w", err)
	}
	path := p.basePath + "/" + p.bucket + "/" + key
	rawPath := p.basePath + "/" + httpbinding.EscapePath(p.bucket, true) + "/" + httpbinding.EscapePath(key, false)
	q := make(url.Values, len(extra)+1)
	for k, v := range extra {
		q.Set(k, v)
	}
	// The signer does not add the lifetime itself (the S3 presign client
	// does, as a query parameter, before signing).
	q.Set("X-Amz-Expires", strconv.FormatInt(int64(ttl/time.Second), 10))
	req := &http.Request{
		Method: http.MethodGet,
		URL:    &url.URL{Scheme: p.scheme, Host: p.host, Path: path, RawPath: rawPath, RawQuery: q.Encode()},
		Host:   p.host,
		Header: http.Header{},
	}
	signed, _, err := p.signer.PresignHTTP(ctx, creds, req, "UNSIGNED-PAYLOAD", "s3", p.region, now)
	if err != nil {
		return "", fmt.Errorf("storage: presign %s: %w", key, err)
	}
	return signed, nil
}
