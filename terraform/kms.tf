# One customer-managed key for this stack's data at rest: RDS, ElastiCache, S3 files, Secrets Manager,
# CloudWatch Logs, ECR. Services use it on behalf of IAM principals that are allowed to (the root
# statement delegates to IAM); CloudWatch Logs needs its own statement.
data "aws_iam_policy_document" "kms" {
  #checkov:skip=CKV_AWS_356:In a key policy, "*" as resource means this key only.
  #checkov:skip=CKV_AWS_111:Key policy: the account root statement delegates to IAM (the AWS default key policy).
  #checkov:skip=CKV_AWS_109:Key policy: the account root statement delegates to IAM (the AWS default key policy).
  statement {
    sid       = "AccountAdministration"
    actions   = ["kms:*"]
    resources = ["*"]
    principals {
      type        = "AWS"
      identifiers = ["arn:${local.partition}:iam::${local.account_id}:root"]
    }
  }

  statement {
    sid = "CloudWatchLogs"
    actions = [
      "kms:Encrypt*",
      "kms:Decrypt*",
      "kms:ReEncrypt*",
      "kms:GenerateDataKey*",
      "kms:Describe*",
    ]
    resources = ["*"]
    principals {
      type        = "Service"
      identifiers = ["logs.${local.region}.amazonaws.com"]
    }
    condition {
      test     = "ArnLike"
      variable = "kms:EncryptionContext:aws:logs:arn"
      values   = ["arn:${local.partition}:logs:${local.region}:${local.account_id}:log-group:*"]
    }
  }
}

resource "aws_kms_key" "main" {
  description             = "${local.name}: data at rest"
  enable_key_rotation     = true
  deletion_window_in_days = 30
  policy                  = data.aws_iam_policy_document.kms.json
}

resource "aws_kms_alias" "main" {
  name          = "alias/${local.name}"
  target_key_id = aws_kms_key.main.key_id
}
