output "alb_dns_name" {
  description = "Point the domain's DNS (CNAME or Route 53 alias) here."
  value       = aws_lb.main.dns_name
}

output "alb_zone_id" {
  description = "Hosted zone of the load balancer, for a Route 53 alias record."
  value       = aws_lb.main.zone_id
}

output "app_url" {
  description = "Public URL of the application."
  value       = "https://${var.domain_name}"
}

output "ecr_repository_url" {
  description = "Push the application image here (tag = git SHA, then apply with image_tag)."
  value       = aws_ecr_repository.app.repository_url
}

output "files_bucket" {
  description = "S3 bucket of tenants' files (AWS_STORAGE_BUCKET_NAME)."
  value       = aws_s3_bucket.files.bucket
}

output "logs_bucket" {
  description = "S3 bucket of ALB and S3 access logs."
  value       = aws_s3_bucket.logs.bucket
}

output "ecs_cluster_name" {
  description = "ECS cluster running the web and worker services."
  value       = aws_ecs_cluster.main.name
}

output "db_endpoint" {
  description = "RDS PostgreSQL endpoint (private)."
  value       = aws_db_instance.main.endpoint
}

output "redis_endpoint" {
  description = "ElastiCache primary endpoint (private, TLS)."
  value       = aws_elasticache_replication_group.main.primary_endpoint_address
}

output "secret_arns" {
  description = "Secrets Manager secrets injected into the tasks."
  value = {
    secret_key       = aws_secretsmanager_secret.secret_key.arn
    jwt_signing_key  = aws_secretsmanager_secret.jwt_signing_key.arn
    db_password      = aws_secretsmanager_secret.db_password.arn
    redis_auth_token = aws_secretsmanager_secret.redis_auth_token.arn
    smtp_password    = aws_secretsmanager_secret.smtp_password.arn
  }
}

output "run_task_command" {
  description = "Runs `manage.py bootstrap` (append a command override for other manage.py commands)."
  value = join(" ", [
    "aws ecs run-task",
    "--region ${local.region}",
    "--cluster ${aws_ecs_cluster.main.name}",
    "--task-definition ${aws_ecs_task_definition.manage.family}",
    "--launch-type FARGATE",
    "--network-configuration 'awsvpcConfiguration={subnets=[${join(",", aws_subnet.private[*].id)}],securityGroups=[${aws_security_group.worker.id}],assignPublicIp=DISABLED}'",
  ])
}
