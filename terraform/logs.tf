resource "aws_cloudwatch_log_group" "app" {
  for_each = toset(["web", "worker", "scheduler", "manage", "pgbouncer", "exec"])

  name              = "/${var.project}/${var.environment}/${each.key}"
  retention_in_days = var.log_retention_days
  kms_key_id        = aws_kms_key.main.arn
}
