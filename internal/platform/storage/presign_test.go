package storage

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// fixedTimePresigner is the S3 presign client's signer with the clock
// pinned, and without the client's x-id=GetObject marker (which our links
// leave out; S3 ignores it), so that both links can be compared byte for byte.
type fixedTimePresigner struct {
	signer *v4.Signer
	now    time.Time
}

func (f fixedTimePresigner) PresignHTTP(ctx context.Context, creds aws.Credentials, r *http.Request,
	payloadHash, service, region string, _ time.Time, optFns ...func(*v4.SignerOptions),
) (string, http.Header, error) {
	q := r.URL.Query()
	q.Del("x-id")
	r.URL.RawQuery = q.Encode()
	return f.signer.PresignHTTP(ctx, creds, r, payloadHash, service, region, f.now, optFns...)
}

// s3Signer is the signer the S3 client presigns with (its
// newDefaultV4Signer): S3 signs the path as sent, without escaping it again.
func s3Signer() *v4.Signer {
	return v4.NewSigner(func(o *v4.SignerOptions) { o.DisableURIPathEscaping = true })
}

// The link must be exactly what the SDK's S3 presign client produces for
// the same object, time and lifetime: same path escaping of awkward keys,
// same query, same SigV4 signature.
func TestPresignMatchesS3PresignClient(t *testing.T) {
	t.Parallel()
	const (
		endpoint = "http://127.0.0.1:7070"
		region   = "us-east-1"
		bucket   = "hackdesk"
	)
	creds := credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "")
	p, err := newPresigner(endpoint, region, bucket, creds)
	if err != nil {
		t.Fatal(err)
	}
	client := s3.New(s3.Options{
		Region:       region,
		BaseEndpoint: aws.String(endpoint),
		Credentials:  creds,
		UsePathStyle: true,
	})
	now := time.Date(2026, 11, 22, 3, 4, 5, 0, time.UTC)
	ctx := context.Background()

	for _, key := range []string{
		"5b7c1c5e-0d1e-4c3b-9d2a-1f2e3d4c5b6a/cv.pdf",
		"5b7c1c5e-0d1e-4c3b-9d2a-1f2e3d4c5b6a/My_CV (final)~é+&=?#%.pdf",
	} {
		disposition := `attachment; filename="My_CV_final_.pdf"`
		got, err := p.get(ctx, key, time.Hour, now, map[string]string{"response-content-disposition": disposition})
		if err != nil {
			t.Fatal(err)
		}
		sdk, err := s3.NewPresignClient(client, func(o *s3.PresignOptions) {
			o.Presigner = fixedTimePresigner{signer: s3Signer(), now: now}
		}, s3.WithPresignExpires(time.Hour)).PresignGetObject(ctx, &s3.GetObjectInput{
			Bucket:                     aws.String(bucket),
			Key:                        aws.String(key),
			ResponseContentDisposition: aws.String(disposition),
		})
		if err != nil {
			t.Fatal(err)
		}
		if got != sdk.URL {
			t.Fatalf("key %q\nours: %s\nsdk:  %s", key, got, sdk.URL)
		}
		u, err := url.Parse(got)
		if err != nil {
			t.Fatal(err)
		}
		q := u.Query()
		if q.Get("X-Amz-Expires") != "3600" || q.Get("X-Amz-SignedHeaders") != "host" ||
			q.Get("X-Amz-Algorithm") != "AWS4-HMAC-SHA256" || q.Get("X-Amz-Date") != "20261122T030405Z" ||
			q.Get("X-Amz-Credential") != "AKIDEXAMPLE/20261122/us-east-1/s3/aws4_request" ||
			q.Get("response-content-disposition") != disposition || len(q.Get("X-Amz-Signature")) != 64 {
			t.Fatalf("link %s", got)
		}
	}
	got, _ := p.get(ctx, "k/My_CV (final)~é.pdf", time.Hour, now, nil)
	if !strings.HasPrefix(got, endpoint+"/hackdesk/k/My_CV%20%28final%29~%C3%A9.pdf?") {
		t.Fatalf("link %s", got)
	}
}

// A golden link, independent of how the test above configures the SDK: the
// signature the previous hand-written signer produced (which versitygw
// accepted in the end-to-end tests) for an awkward key.
func TestPresignGolden(t *testing.T) {
	t.Parallel()
	p, err := newPresigner("http://127.0.0.1:7070", "us-east-1", "hackdesk",
		credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", ""))
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.get(context.Background(), "5b7c1c5e-0d1e-4c3b-9d2a-1f2e3d4c5b6a/My_CV (final)~é+&=?#%.pdf", time.Hour,
		time.Date(2026, 11, 22, 3, 4, 5, 0, time.UTC),
		map[string]string{"response-content-disposition": `attachment; filename="My_CV_final_.pdf"`})
	if err != nil {
		t.Fatal(err)
	}
	const want = "http://127.0.0.1:7070/hackdesk/5b7c1c5e-0d1e-4c3b-9d2a-1f2e3d4c5b6a/My_CV%20%28final%29~%C3%A9%2B%26%3D%3F%23%25.pdf" +
		"?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIDEXAMPLE%2F20261122%2Fus-east-1%2Fs3%2Faws4_request" +
		"&X-Amz-Date=20261122T030405Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host" +
		"&response-content-disposition=attachment%3B%20filename%3D%22My_CV_final_.pdf%22" +
		"&X-Amz-Signature=48ef366562b87d5d61a9006d27cb7d8e383f879e9fcb0b9255feb949d15af229"
	if got != want {
		t.Fatalf("link\n got %s\nwant %s", got, want)
	}
}

func TestPresignBadEndpoint(t *testing.T) {
	t.Parallel()
	if _, err := newPresigner("not a url", "us-east-1", "b", credentials.NewStaticCredentialsProvider("a", "b", "")); err == nil {
		t.Fatal("want an error for an endpoint without a host")
	}
}

func BenchmarkPresign(b *testing.B) {
	p, _ := newPresigner("http://127.0.0.1:7070", "us-east-1", "hackdesk",
		credentials.NewStaticCredentialsProvider("AKID", "secret", ""))
	extra := map[string]string{"response-content-disposition": `attachment; filename="cv.pdf"`}
	ctx := context.Background()
	now := time.Now()
	for i := 0; i < b.N; i++ {
		_, _ = p.get(ctx, "5b7c1c5e-0d1e-4c3b-9d2a-1f2e3d4c5b6a/cv.pdf", time.Hour, now, extra)
	}
}
