package mail

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"
	"github.com/aws/aws-sdk-go-v2/service/sesv2/types"
)

// SESSender sends through Amazon SES v2 with the default AWS credential
// chain (environment, shared config, instance role).
type SESSender struct {
	client *sesv2.Client
}

// NewSESSender loads the AWS configuration; region may be empty to use the
// chain's own.
func NewSESSender(ctx context.Context, region string) (*SESSender, error) {
	var opts []func(*awsconfig.LoadOptions) error
	if region != "" {
		opts = append(opts, awsconfig.WithRegion(region))
	}
	cfg, err := awsconfig.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("load AWS configuration for SES: %w", err)
	}
	return &SESSender{client: sesv2.NewFromConfig(cfg)}, nil
}

// Send delivers m; SES's rejection of the message itself is permanent.
func (s *SESSender) Send(ctx context.Context, m Message) (string, error) {
	body := &types.Body{Text: &types.Content{Data: aws.String(m.Text), Charset: aws.String("UTF-8")}}
	if m.HTML != "" {
		body.Html = &types.Content{Data: aws.String(m.HTML), Charset: aws.String("UTF-8")}
	}
	if err := CheckHeaders(m.Headers); err != nil {
		return "", err
	}
	var headers []types.MessageHeader
	for _, name := range sortedHeaders(m.Headers) {
		headers = append(headers, types.MessageHeader{Name: aws.String(name), Value: aws.String(m.Headers[name])})
	}
	out, err := s.client.SendEmail(ctx, &sesv2.SendEmailInput{
		FromEmailAddress: aws.String(m.From),
		Destination:      &types.Destination{ToAddresses: []string{m.To}},
		Content: &types.EmailContent{Simple: &types.Message{
			Subject: &types.Content{Data: aws.String(m.Subject), Charset: aws.String("UTF-8")},
			Body:    body,
			Headers: headers,
		}},
	})
	if err != nil {
		var rejected *types.MessageRejected
		var badInput *types.BadRequestException
		var notVerified *types.MailFromDomainNotVerifiedException
		if errors.As(err, &rejected) || errors.As(err, &badInput) || errors.As(err, &notVerified) {
			return "", &PermanentError{err}
		}
		return "", err
	}
	return aws.ToString(out.MessageId), nil
}
