# ------------------------------------------------------------------ PgBouncer (the connection pooler)
# Web, worker and scheduler tasks connect to PgBouncer (pgbouncer.<name>.internal:6432, Cloud Map),
# which holds at most pgbouncer_default_pool_size server connections to RDS however many tasks and
# companies there are. pgbouncer_pool_mode: "session" keeps django-tenants' per-connection
# search_path safe by construction; "transaction" needs every transaction to set its own search_path
# (docs/operations.md, "The connection pooler"). The one-off manage task (migrations) connects to RDS
# directly. The app→pooler hop stays inside the private subnets; the pooler→RDS hop requires TLS.

resource "aws_service_discovery_private_dns_namespace" "internal" {
  name = "${local.name}.internal"
  vpc  = aws_vpc.main.id
}

resource "aws_service_discovery_service" "pgbouncer" {
  name = "pgbouncer"

  dns_config {
    namespace_id   = aws_service_discovery_private_dns_namespace.internal.id
    routing_policy = "MULTIVALUE"
    dns_records {
      ttl  = 10
      type = "A"
    }
  }

  health_check_custom_config {
    failure_threshold = 1
  }
}

resource "aws_security_group" "pgbouncer" {
  name_prefix = "${local.name}-pgbouncer-"
  description = "PgBouncer tasks"
  vpc_id      = aws_vpc.main.id

  lifecycle {
    create_before_destroy = true
  }
}

resource "aws_vpc_security_group_ingress_rule" "pgbouncer_from_tasks" {
  for_each = local.task_security_groups

  security_group_id            = aws_security_group.pgbouncer.id
  description                  = "PgBouncer from the ${each.key} tasks"
  referenced_security_group_id = each.value
  ip_protocol                  = "tcp"
  from_port                    = local.pgbouncer_port
  to_port                      = local.pgbouncer_port
}

resource "aws_vpc_security_group_egress_rule" "tasks_pgbouncer" {
  for_each = local.task_security_groups

  security_group_id            = each.value
  description                  = "To PgBouncer"
  referenced_security_group_id = aws_security_group.pgbouncer.id
  ip_protocol                  = "tcp"
  from_port                    = local.pgbouncer_port
  to_port                      = local.pgbouncer_port
}

resource "aws_vpc_security_group_egress_rule" "pgbouncer_db" {
  security_group_id            = aws_security_group.pgbouncer.id
  description                  = "To PostgreSQL"
  referenced_security_group_id = aws_security_group.db.id
  ip_protocol                  = "tcp"
  from_port                    = 5432
  to_port                      = 5432
}

resource "aws_vpc_security_group_egress_rule" "pgbouncer_https" {
  security_group_id = aws_security_group.pgbouncer.id
  description       = "HTTPS to the image registry, Secrets Manager and CloudWatch Logs"
  cidr_ipv4         = "0.0.0.0/0"
  ip_protocol       = "tcp"
  from_port         = 443
  to_port           = 443
}

resource "aws_vpc_security_group_ingress_rule" "db_from_pgbouncer" {
  security_group_id            = aws_security_group.db.id
  description                  = "PostgreSQL from PgBouncer"
  referenced_security_group_id = aws_security_group.pgbouncer.id
  ip_protocol                  = "tcp"
  from_port                    = 5432
  to_port                      = 5432
}

locals {
  pgbouncer_port = 6432
  pgbouncer_host = "${aws_service_discovery_service.pgbouncer.name}.${aws_service_discovery_private_dns_namespace.internal.name}"
}

resource "aws_ecs_task_definition" "pgbouncer" {
  family                   = "${local.name}-pgbouncer"
  requires_compatibilities = ["FARGATE"]
  network_mode             = "awsvpc"
  cpu                      = 256
  memory                   = 512
  execution_role_arn       = aws_iam_role.execution.arn

  runtime_platform {
    operating_system_family = "LINUX"
    cpu_architecture        = "X86_64"
  }

  container_definitions = jsonencode([{
    name                   = "pgbouncer"
    image                  = var.pgbouncer_image
    essential              = true
    readonlyRootFilesystem = false # the image writes its generated pgbouncer.ini at start
    portMappings           = [{ containerPort = local.pgbouncer_port, protocol = "tcp" }]
    environment = [for k, v in {
      DB_HOST                   = aws_db_instance.main.address
      DB_PORT                   = tostring(aws_db_instance.main.port)
      DB_USER                   = aws_db_instance.main.username
      DB_NAME                   = aws_db_instance.main.db_name
      LISTEN_PORT               = tostring(local.pgbouncer_port)
      AUTH_TYPE                 = "scram-sha-256"
      POOL_MODE                 = var.pgbouncer_pool_mode
      DEFAULT_POOL_SIZE         = tostring(var.pgbouncer_default_pool_size)
      MAX_CLIENT_CONN           = tostring(var.pgbouncer_max_client_conn)
      SERVER_TLS_SSLMODE        = "require"
      SERVER_RESET_QUERY        = "DISCARD ALL"
      IGNORE_STARTUP_PARAMETERS = "extra_float_digits,options"
    } : { name = k, value = v }]
    secrets = [{ name = "DB_PASSWORD", valueFrom = aws_secretsmanager_secret.db_password.arn }]
    healthCheck = {
      command     = ["CMD-SHELL", "pg_isready -h 127.0.0.1 -p ${local.pgbouncer_port} || exit 1"]
      interval    = 15
      timeout     = 5
      retries     = 3
      startPeriod = 10
    }
    logConfiguration = {
      logDriver = "awslogs"
      options = {
        awslogs-group         = aws_cloudwatch_log_group.app["pgbouncer"].name
        awslogs-region        = local.region
        awslogs-stream-prefix = "pgbouncer"
      }
    }
  }])
}

resource "aws_ecs_service" "pgbouncer" {
  name             = "pgbouncer"
  cluster          = aws_ecs_cluster.main.id
  task_definition  = aws_ecs_task_definition.pgbouncer.arn
  desired_count    = var.pgbouncer_count
  launch_type      = "FARGATE"
  platform_version = "LATEST"
  propagate_tags   = "SERVICE"

  deployment_minimum_healthy_percent = 100
  deployment_maximum_percent         = 200

  deployment_circuit_breaker {
    enable   = true
    rollback = true
  }

  network_configuration {
    subnets          = aws_subnet.private[*].id
    security_groups  = [aws_security_group.pgbouncer.id]
    assign_public_ip = false
  }

  service_registries {
    registry_arn = aws_service_discovery_service.pgbouncer.arn
  }
}
