resource "aws_ecs_cluster" "main" {
  name = local.name

  setting {
    name  = "containerInsights"
    value = "enabled"
  }

  configuration {
    execute_command_configuration {
      kms_key_id = aws_kms_key.main.arn
      logging    = "OVERRIDE"

      log_configuration {
        cloud_watch_encryption_enabled = true
        cloud_watch_log_group_name     = aws_cloudwatch_log_group.app["exec"].name
      }
    }
  }
}

resource "aws_ecs_cluster_capacity_providers" "main" {
  cluster_name       = aws_ecs_cluster.main.name
  capacity_providers = ["FARGATE", "FARGATE_SPOT"]

  default_capacity_provider_strategy {
    capacity_provider = "FARGATE"
    weight            = 1
  }
}

locals {
  metrics_namespace = "FuelDesk/${var.environment}"
  # Migrations and operator commands talk to RDS directly (a session of their own, advisory locks).
  direct_database_environment = {
    DATABASE_URL = "postgres://${aws_db_instance.main.username}@${aws_db_instance.main.address}:${aws_db_instance.main.port}/${aws_db_instance.main.db_name}"
    PGSSLMODE    = "require"
  }
  # The image's entrypoint (infra/entrypoint.py) puts DATABASE_PASSWORD and REDIS_PASSWORD into
  # DATABASE_URL and REDIS_URL, so the URLs here carry no secret.
  app_environment = merge(
    {
      DEBUG           = "0"
      FUELDESK_ENV    = var.environment
      ALLOWED_HOSTS   = "*" # the load balancer only forwards the host names it is given
      PUBLIC_BASE_URL = "https://${var.domain_name}"
      # Through PgBouncer (terraform/pgbouncer.tf); the hop stays in the private subnets, the pooler's
      # own connections to RDS require TLS.
      DATABASE_URL = "postgres://${aws_db_instance.main.username}@${local.pgbouncer_host}:${local.pgbouncer_port}/${aws_db_instance.main.db_name}"
      PGSSLMODE    = "disable"
      # Per-tenant backups (manage.py tenant_backup, the nightly job; terraform/backups.tf).
      BACKUP_BUCKET                = aws_s3_bucket.backups.bucket
      CLOUDWATCH_METRICS_NAMESPACE = local.metrics_namespace
      FUELDESK_RELEASE             = var.image_tag
      LOG_FORMAT                   = "json"
      # Migrations run in the one-off manage task at each deploy (docs/operations.md), not at each
      # web task's start (its DATABASE_URL goes through the pooler).
      FUELDESK_MIGRATE_ON_START = "0"
      REDIS_URL                 = "rediss://${aws_elasticache_replication_group.main.primary_endpoint_address}:6379/0"
      AWS_STORAGE_BUCKET_NAME   = aws_s3_bucket.files.bucket
      AWS_S3_REGION_NAME        = local.region
      FILE_UPLOAD_MAX_BYTES     = tostring(var.file_upload_max_bytes)
      FORWARDED_ALLOW_IPS       = "*" # only the load balancer can reach the tasks (security groups)
      TRUSTED_PROXY_COUNT       = "1" # the ALB appends the client's address to X-Forwarded-For
      WEB_CONCURRENCY           = tostring(var.web_concurrency)
      SENTRY_DSN                = var.sentry_dsn
      DEFAULT_FROM_EMAIL        = var.default_from_email
    },
    var.email_host == "" ? {} : {
      EMAIL_BACKEND   = "django.core.mail.backends.smtp.EmailBackend"
      EMAIL_HOST      = var.email_host
      EMAIL_PORT      = tostring(var.email_port)
      EMAIL_HOST_USER = var.email_host_user
      EMAIL_USE_TLS   = "1"
    },
    var.extra_environment,
  )

  app_secrets = merge(
    {
      SECRET_KEY        = aws_secretsmanager_secret.secret_key.arn
      JWT_SIGNING_KEY   = aws_secretsmanager_secret.jwt_signing_key.arn
      DATABASE_PASSWORD = aws_secretsmanager_secret.db_password.arn
      REDIS_PASSWORD    = aws_secretsmanager_secret.redis_auth_token.arn
    },
    var.email_host == "" ? {} : { EMAIL_HOST_PASSWORD = aws_secretsmanager_secret.smtp_password.arn },
  )

  container_base = {
    image                  = local.image
    essential              = true
    readonlyRootFilesystem = true
    environment            = [for k, v in local.app_environment : { name = k, value = v }]
    secrets                = [for k, v in local.app_secrets : { name = k, valueFrom = v }]
    mountPoints            = [{ sourceVolume = "tmp", containerPath = "/tmp", readOnly = false }]
    linuxParameters        = { initProcessEnabled = true }
  }
}

# ------------------------------------------------------------------ web

resource "aws_ecs_task_definition" "web" {
  family                   = "${local.name}-web"
  requires_compatibilities = ["FARGATE"]
  network_mode             = "awsvpc"
  cpu                      = var.web_cpu
  memory                   = var.web_memory
  execution_role_arn       = aws_iam_role.execution.arn
  task_role_arn            = aws_iam_role.task.arn

  runtime_platform {
    operating_system_family = "LINUX"
    cpu_architecture        = "X86_64"
  }

  volume {
    name = "tmp"
  }

  container_definitions = jsonencode([
    merge(local.container_base, {
      name         = "web"
      portMappings = [{ containerPort = local.app_port, protocol = "tcp" }]
      healthCheck = {
        command     = ["CMD", "python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:${local.app_port}/api/health/live', timeout=4)"]
        interval    = 30
        timeout     = 5
        retries     = 3
        startPeriod = 60
      }
      logConfiguration = {
        logDriver = "awslogs"
        options = {
          awslogs-group         = aws_cloudwatch_log_group.app["web"].name
          awslogs-region        = local.region
          awslogs-stream-prefix = "web"
        }
      }
    })
  ])
}

resource "aws_ecs_service" "web" {
  name                   = "web"
  cluster                = aws_ecs_cluster.main.id
  task_definition        = aws_ecs_task_definition.web.arn
  desired_count          = var.web_desired_count
  launch_type            = "FARGATE"
  platform_version       = "LATEST"
  propagate_tags         = "SERVICE"
  enable_execute_command = var.enable_execute_command

  health_check_grace_period_seconds  = 60
  deployment_minimum_healthy_percent = 100
  deployment_maximum_percent         = 200

  deployment_circuit_breaker {
    enable   = true
    rollback = true
  }

  network_configuration {
    subnets          = aws_subnet.private[*].id
    security_groups  = [aws_security_group.web.id]
    assign_public_ip = false
  }

  load_balancer {
    target_group_arn = aws_lb_target_group.web.arn
    container_name   = "web"
    container_port   = local.app_port
  }

  lifecycle {
    ignore_changes = [desired_count] # owned by autoscaling once created
  }

  depends_on = [aws_lb_listener.https]
}

resource "aws_appautoscaling_target" "web" {
  service_namespace  = "ecs"
  resource_id        = "service/${aws_ecs_cluster.main.name}/${aws_ecs_service.web.name}"
  scalable_dimension = "ecs:service:DesiredCount"
  min_capacity       = var.web_desired_count
  max_capacity       = var.web_max_count
}

resource "aws_appautoscaling_policy" "web_cpu" {
  name               = "${local.name}-web-cpu"
  policy_type        = "TargetTrackingScaling"
  service_namespace  = aws_appautoscaling_target.web.service_namespace
  resource_id        = aws_appautoscaling_target.web.resource_id
  scalable_dimension = aws_appautoscaling_target.web.scalable_dimension

  target_tracking_scaling_policy_configuration {
    target_value       = 60
    scale_in_cooldown  = 300
    scale_out_cooldown = 60

    predefined_metric_specification {
      predefined_metric_type = "ECSServiceAverageCPUUtilization"
    }
  }
}

# ------------------------------------------------------------------ worker (Dramatiq)

resource "aws_ecs_task_definition" "worker" {
  family                   = "${local.name}-worker"
  requires_compatibilities = ["FARGATE"]
  network_mode             = "awsvpc"
  cpu                      = var.worker_cpu
  memory                   = var.worker_memory
  execution_role_arn       = aws_iam_role.execution.arn
  task_role_arn            = aws_iam_role.task.arn

  runtime_platform {
    operating_system_family = "LINUX"
    cpu_architecture        = "X86_64"
  }

  volume {
    name = "tmp"
  }

  container_definitions = jsonencode([
    merge(local.container_base, {
      name = "worker"
      command = [
        "dramatiq", "fueldesk.tasks",
        "--processes", tostring(var.worker_processes),
        "--threads", tostring(var.worker_threads),
      ]
      stopTimeout = 60 # Dramatiq finishes the messages in hand on SIGTERM
      logConfiguration = {
        logDriver = "awslogs"
        options = {
          awslogs-group         = aws_cloudwatch_log_group.app["worker"].name
          awslogs-region        = local.region
          awslogs-stream-prefix = "worker"
        }
      }
    })
  ])
}

resource "aws_ecs_service" "worker" {
  name                   = "worker"
  cluster                = aws_ecs_cluster.main.id
  task_definition        = aws_ecs_task_definition.worker.arn
  desired_count          = var.worker_desired_count
  launch_type            = "FARGATE"
  platform_version       = "LATEST"
  propagate_tags         = "SERVICE"
  enable_execute_command = var.enable_execute_command

  deployment_minimum_healthy_percent = 100
  deployment_maximum_percent         = 200

  deployment_circuit_breaker {
    enable   = true
    rollback = true
  }

  network_configuration {
    subnets          = aws_subnet.private[*].id
    security_groups  = [aws_security_group.worker.id]
    assign_public_ip = false
  }

  lifecycle {
    ignore_changes = [desired_count] # owned by autoscaling once created
  }
}

# Workers scale on CPU and on the backlog: waiting messages (all queues, published each minute by
# the scheduler, fueldesk/scheduler.py) per running worker task. Whichever asks for more tasks wins.
resource "aws_appautoscaling_target" "worker" {
  service_namespace  = "ecs"
  resource_id        = "service/${aws_ecs_cluster.main.name}/${aws_ecs_service.worker.name}"
  scalable_dimension = "ecs:service:DesiredCount"
  min_capacity       = var.worker_desired_count
  max_capacity       = var.worker_max_count
}

resource "aws_appautoscaling_policy" "worker_cpu" {
  name               = "${local.name}-worker-cpu"
  policy_type        = "TargetTrackingScaling"
  service_namespace  = aws_appautoscaling_target.worker.service_namespace
  resource_id        = aws_appautoscaling_target.worker.resource_id
  scalable_dimension = aws_appautoscaling_target.worker.scalable_dimension

  target_tracking_scaling_policy_configuration {
    target_value       = 70
    scale_in_cooldown  = 300
    scale_out_cooldown = 60

    predefined_metric_specification {
      predefined_metric_type = "ECSServiceAverageCPUUtilization"
    }
  }
}

resource "aws_appautoscaling_policy" "worker_backlog" {
  name               = "${local.name}-worker-backlog"
  policy_type        = "TargetTrackingScaling"
  service_namespace  = aws_appautoscaling_target.worker.service_namespace
  resource_id        = aws_appautoscaling_target.worker.resource_id
  scalable_dimension = aws_appautoscaling_target.worker.scalable_dimension

  target_tracking_scaling_policy_configuration {
    target_value       = var.worker_backlog_per_task
    scale_in_cooldown  = 300
    scale_out_cooldown = 60

    customized_metric_specification {
      metrics {
        id          = "depth"
        return_data = false
        metric_stat {
          stat = "Average"
          metric {
            namespace   = local.metrics_namespace
            metric_name = "QueueDepth"
            dimensions {
              name  = "Environment"
              value = var.environment
            }
          }
        }
      }

      metrics {
        id          = "tasks"
        return_data = false
        metric_stat {
          stat = "Average"
          metric {
            namespace   = "ECS/ContainerInsights"
            metric_name = "RunningTaskCount"
            dimensions {
              name  = "ClusterName"
              value = aws_ecs_cluster.main.name
            }
            dimensions {
              name  = "ServiceName"
              value = aws_ecs_service.worker.name
            }
          }
        }
      }

      metrics {
        id          = "backlog_per_task"
        label       = "Waiting messages per worker task"
        expression  = "depth / MAX([tasks, 1])"
        return_data = true
      }
    }
  }
}

# ------------------------------------------------------------------ scheduler (periodic jobs)
# One small task: sends the periodic jobs (core.jobs.periodic) and publishes the queue depth.

resource "aws_ecs_task_definition" "scheduler" {
  family                   = "${local.name}-scheduler"
  requires_compatibilities = ["FARGATE"]
  network_mode             = "awsvpc"
  cpu                      = 256
  memory                   = 512
  execution_role_arn       = aws_iam_role.execution.arn
  task_role_arn            = aws_iam_role.task.arn

  runtime_platform {
    operating_system_family = "LINUX"
    cpu_architecture        = "X86_64"
  }

  volume {
    name = "tmp"
  }

  container_definitions = jsonencode([
    merge(local.container_base, {
      name    = "scheduler"
      command = ["python", "-m", "fueldesk.scheduler"]
      logConfiguration = {
        logDriver = "awslogs"
        options = {
          awslogs-group         = aws_cloudwatch_log_group.app["scheduler"].name
          awslogs-region        = local.region
          awslogs-stream-prefix = "scheduler"
        }
      }
    })
  ])
}

resource "aws_ecs_service" "scheduler" {
  name                   = "scheduler"
  cluster                = aws_ecs_cluster.main.id
  task_definition        = aws_ecs_task_definition.scheduler.arn
  desired_count          = 1
  launch_type            = "FARGATE"
  platform_version       = "LATEST"
  propagate_tags         = "SERVICE"
  enable_execute_command = var.enable_execute_command

  # Two schedulers for a moment during a deploy are harmless (a Redis key per period slot).
  deployment_minimum_healthy_percent = 100
  deployment_maximum_percent         = 200

  deployment_circuit_breaker {
    enable   = true
    rollback = true
  }

  network_configuration {
    subnets          = aws_subnet.private[*].id
    security_groups  = [aws_security_group.worker.id]
    assign_public_ip = false
  }
}

# ------------------------------------------------------------------ one-off commands
# `manage.py bootstrap` at each deploy, and the operator CLI (tenant_create, tenant_list, ...):
# see the run_task_command output and docs/operations.md.

resource "aws_ecs_task_definition" "manage" {
  family                   = "${local.name}-manage"
  requires_compatibilities = ["FARGATE"]
  network_mode             = "awsvpc"
  cpu                      = 512
  memory                   = 1024
  execution_role_arn       = aws_iam_role.execution.arn
  task_role_arn            = aws_iam_role.task.arn

  runtime_platform {
    operating_system_family = "LINUX"
    cpu_architecture        = "X86_64"
  }

  volume {
    name = "tmp"
  }

  container_definitions = jsonencode([
    merge(local.container_base, {
      name        = "manage"
      command     = ["python", "manage.py", "bootstrap"]
      environment = [for k, v in merge(local.app_environment, local.direct_database_environment) : { name = k, value = v }]
      logConfiguration = {
        logDriver = "awslogs"
        options = {
          awslogs-group         = aws_cloudwatch_log_group.app["manage"].name
          awslogs-region        = local.region
          awslogs-stream-prefix = "manage"
        }
      }
    })
  ])
}
