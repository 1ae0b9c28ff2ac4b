// Package storage is hackdesk's private object store: one S3 bucket,
// reached through aws-sdk-go-v2 (versitygw locally and in tests).
package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"

	"hackdesk/internal/platform/config"
)

// Store is one bucket.
type Store struct {
	client  *s3.Client
	presign *presigner
	bucket  string
}

// New builds a client for the configured endpoint. It does not connect.
func New(cfg config.Config) *Store {
	creds := credentials.NewStaticCredentialsProvider(cfg.S3AccessKey, cfg.S3SecretKey, "")
	client := s3.New(s3.Options{
		Region:       cfg.S3Region,
		BaseEndpoint: aws.String(cfg.S3Endpoint),
		Credentials:  creds,
		UsePathStyle: true,
		// versitygw and most S3 look-alikes do not speak the newer default
		// checksum trailers.
		RequestChecksumCalculation: aws.RequestChecksumCalculationWhenRequired,
		ResponseChecksumValidation: aws.ResponseChecksumValidationWhenRequired,
	})
	// A malformed endpoint leaves presign nil; PresignGet then reports it.
	ps, _ := newPresigner(cfg.S3Endpoint, cfg.S3Region, cfg.S3Bucket, creds)
	return &Store{client: client, presign: ps, bucket: cfg.S3Bucket}
}

// EnsureBucket creates the bucket unless it exists already.
func (s *Store) EnsureBucket(ctx context.Context) error {
	_, err := s.client.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: &s.bucket})
	if err == nil {
		return nil
	}
	_, err = s.client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: &s.bucket})
	var owned *types.BucketAlreadyOwnedByYou
	var exists *types.BucketAlreadyExists
	if err != nil && !errors.As(err, &owned) && !errors.As(err, &exists) {
		return fmt.Errorf("create bucket %s: %w", s.bucket, err)
	}
	return nil
}

// Put stores body under key.
func (s *Store) Put(ctx context.Context, key, contentType string, body io.Reader, size int64) error {
	_, err := s.client.PutObject(ctx, &s3.PutObjectInput{
		Bucket:        &s.bucket,
		Key:           &key,
		Body:          body,
		ContentLength: aws.Int64(size),
		ContentType:   aws.String(contentType),
	})
	return err
}

// ErrNotFound is Get's answer for a missing object.
var ErrNotFound = errors.New("storage: object not found")

// Get opens key for streaming: the body is read straight from the
// response, never buffered whole; the caller closes it. It also answers
// the object's size. A missing object is ErrNotFound.
func (s *Store) Get(ctx context.Context, key string) (io.ReadCloser, int64, error) {
	out, err := s.client.GetObject(ctx, &s3.GetObjectInput{Bucket: &s.bucket, Key: &key})
	if isNotFound(err) {
		return nil, 0, ErrNotFound
	}
	if err != nil {
		return nil, 0, err
	}
	return out.Body, aws.ToInt64(out.ContentLength), nil
}

// Head reads at most n bytes from the start of key (one ranged GET), for
// a look at a file's signature without fetching the whole file. A missing
// object is ErrNotFound.
func (s *Store) Head(ctx context.Context, key string, n int) ([]byte, error) {
	out, err := s.client.GetObject(ctx, &s3.GetObjectInput{
		Bucket: &s.bucket, Key: &key, Range: aws.String(fmt.Sprintf("bytes=0-%d", n-1)),
	})
	if isNotFound(err) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	defer out.Body.Close()
	return io.ReadAll(io.LimitReader(out.Body, int64(n)))
}

// Exists reports whether key holds an object.
func (s *Store) Exists(ctx context.Context, key string) (bool, error) {
	_, err := s.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &s.bucket, Key: &key})
	if isNotFound(err) {
		return false, nil
	}
	return err == nil, err
}

// Copy copies the object at src to dst within the bucket (server side,
// nothing passes through this process). A missing src is ErrNotFound.
func (s *Store) Copy(ctx context.Context, src, dst string) error {
	source := s.bucket + "/" + url.PathEscape(src)
	source = strings.ReplaceAll(source, "%2F", "/")
	_, err := s.client.CopyObject(ctx, &s3.CopyObjectInput{Bucket: &s.bucket, Key: &dst, CopySource: &source})
	if isNotFound(err) {
		return ErrNotFound
	}
	return err
}

// Delete removes key; deleting a missing object is not an error.
func (s *Store) Delete(ctx context.Context, key string) error {
	_, err := s.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &s.bucket, Key: &key})
	if isNotFound(err) {
		return nil
	}
	return err
}

// List returns the keys under prefix, every page of them.
func (s *Store) List(ctx context.Context, prefix string) ([]string, error) {
	var keys []string
	p := s3.NewListObjectsV2Paginator(s.client, &s3.ListObjectsV2Input{Bucket: &s.bucket, Prefix: aws.String(prefix)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, o := range page.Contents {
			keys = append(keys, aws.ToString(o.Key))
		}
	}
	return keys, nil
}

// PresignGet returns a time-limited download link (SigV4, path style) that
// makes browsers save the file under filename.
func (s *Store) PresignGet(ctx context.Context, key, filename string, ttl time.Duration) (string, error) {
	if s.presign == nil {
		return "", errors.New("storage: S3_ENDPOINT is not a URL")
	}
	return s.presign.get(ctx, key, ttl, time.Now(), map[string]string{
		"response-content-disposition": fmt.Sprintf("attachment; filename=%q", filename),
	})
}

// PresignInline returns a time-limited link (SigV4, path style) that
// browsers show in place rather than save: the response carries
// Content-Disposition: inline and the given Content-Type. It is for
// previews; downloads use PresignGet.
func (s *Store) PresignInline(ctx context.Context, key, contentType string, ttl time.Duration) (string, error) {
	if s.presign == nil {
		return "", errors.New("storage: S3_ENDPOINT is not a URL")
	}
	return s.presign.get(ctx, key, ttl, time.Now(), map[string]string{
		"response-content-disposition": "inline",
		"response-content-type":        contentType,
	})
}

func isNotFound(err error) bool {
	if err == nil {
		return false
	}
	var nsk *types.NoSuchKey
	var nf *types.NotFound
	if errors.As(err, &nsk) || errors.As(err, &nf) {
		return true
	}
	var apiErr smithy.APIError
	return errors.As(err, &apiErr) && (apiErr.ErrorCode() == "NotFound" || apiErr.ErrorCode() == "NoSuchKey")
}
