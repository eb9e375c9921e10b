resource "aws_security_group" "alb" {
  name        = "${local.name}-alb"
  description = "Public load balancer: HTTPS (and HTTP, redirected) from the internet"
  vpc_id      = aws_vpc.main.id

  tags = { Name = "${local.name}-alb" }
}

resource "aws_security_group" "web" {
  name        = "${local.name}-web"
  description = "Web tasks: gunicorn, reached only from the load balancer"
  vpc_id      = aws_vpc.main.id

  tags = { Name = "${local.name}-web" }
}

resource "aws_security_group" "worker" {
  name        = "${local.name}-worker"
  description = "Worker and one-off manage tasks: no inbound traffic"
  vpc_id      = aws_vpc.main.id

  tags = { Name = "${local.name}-worker" }
}

resource "aws_security_group" "db" {
  name        = "${local.name}-db"
  description = "RDS PostgreSQL: reached from the web and worker tasks"
  vpc_id      = aws_vpc.main.id

  tags = { Name = "${local.name}-db" }
}

resource "aws_security_group" "redis" {
  name        = "${local.name}-redis"
  description = "ElastiCache Redis: reached from the web and worker tasks"
  vpc_id      = aws_vpc.main.id

  tags = { Name = "${local.name}-redis" }
}

# ------------------------------------------------------------------ load balancer

resource "aws_vpc_security_group_ingress_rule" "alb_https" {
  #checkov:skip=CKV_AWS_260:A public web application: HTTPS from anywhere is its purpose.
  security_group_id = aws_security_group.alb.id
  description       = "HTTPS from the internet"
  cidr_ipv4         = "0.0.0.0/0"
  ip_protocol       = "tcp"
  from_port         = 443
  to_port           = 443
}

resource "aws_vpc_security_group_ingress_rule" "alb_http" {
  #checkov:skip=CKV_AWS_260:Port 80 only answers with a permanent redirect to HTTPS.
  security_group_id = aws_security_group.alb.id
  description       = "HTTP from the internet, redirected to HTTPS"
  cidr_ipv4         = "0.0.0.0/0"
  ip_protocol       = "tcp"
  from_port         = 80
  to_port           = 80
}

resource "aws_vpc_security_group_egress_rule" "alb_to_web" {
  security_group_id            = aws_security_group.alb.id
  description                  = "To the web tasks"
  referenced_security_group_id = aws_security_group.web.id
  ip_protocol                  = "tcp"
  from_port                    = local.app_port
  to_port                      = local.app_port
}

resource "aws_vpc_security_group_ingress_rule" "web_from_alb" {
  security_group_id            = aws_security_group.web.id
  description                  = "From the load balancer"
  referenced_security_group_id = aws_security_group.alb.id
  ip_protocol                  = "tcp"
  from_port                    = local.app_port
  to_port                      = local.app_port
}

# ------------------------------------------------------------------ tasks' outbound traffic

locals {
  task_security_groups = {
    web    = aws_security_group.web.id
    worker = aws_security_group.worker.id
  }
}

resource "aws_vpc_security_group_egress_rule" "tasks_https" {
  for_each = local.task_security_groups

  security_group_id = each.value
  description       = "HTTPS to AWS APIs (ECR, Secrets Manager, S3, logs), Sentry, accounting and mail APIs"
  cidr_ipv4         = "0.0.0.0/0"
  ip_protocol       = "tcp"
  from_port         = 443
  to_port           = 443
}

resource "aws_vpc_security_group_egress_rule" "tasks_smtp" {
  for_each = local.task_security_groups

  security_group_id = each.value
  description       = "SMTP submission to the mail provider"
  cidr_ipv4         = "0.0.0.0/0"
  ip_protocol       = "tcp"
  from_port         = var.email_port
  to_port           = var.email_port
}

resource "aws_vpc_security_group_egress_rule" "tasks_db" {
  for_each = local.task_security_groups

  security_group_id            = each.value
  description                  = "To PostgreSQL"
  referenced_security_group_id = aws_security_group.db.id
  ip_protocol                  = "tcp"
  from_port                    = 5432
  to_port                      = 5432
}

resource "aws_vpc_security_group_egress_rule" "tasks_redis" {
  for_each = local.task_security_groups

  security_group_id            = each.value
  description                  = "To Redis"
  referenced_security_group_id = aws_security_group.redis.id
  ip_protocol                  = "tcp"
  from_port                    = 6379
  to_port                      = 6379
}

resource "aws_vpc_security_group_ingress_rule" "db_from_tasks" {
  for_each = local.task_security_groups

  security_group_id            = aws_security_group.db.id
  description                  = "PostgreSQL from the ${each.key} tasks"
  referenced_security_group_id = each.value
  ip_protocol                  = "tcp"
  from_port                    = 5432
  to_port                      = 5432
}

resource "aws_vpc_security_group_ingress_rule" "redis_from_tasks" {
  for_each = local.task_security_groups

  security_group_id            = aws_security_group.redis.id
  description                  = "Redis from the ${each.key} tasks"
  referenced_security_group_id = each.value
  ip_protocol                  = "tcp"
  from_port                    = 6379
  to_port                      = 6379
}
