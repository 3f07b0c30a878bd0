/** The server's data by name: aliases of the types generated from its OpenAPI description (`schema.d.ts`, written by
 * `make openapi`), so no screen declares a server shape by hand. */
import type { components } from "./schema";

type Schemas = components["schemas"];

export type User = Schemas["CurrentUser"];
export type AuthOptions = Schemas["SignInOptions"];
export type Instance = Schemas["InstanceView"];
export type EmailUsage = Schemas["EmailUsage"];
export type LinkAddress = Schemas["LinkAddress"];

export type Campaign = Schemas["CampaignView"];
export type AiSettings = Schemas["AiSettings"];
export type SendingWindow = Schemas["SendingWindowView"];
export type Template = Schemas["TemplateRow"];
export type FollowUpRow = Schemas["FollowUpRow"];
export type FollowUpTiming = Schemas["FollowUpTiming"];
export type Preview = Schemas["Preview"];
export type UploadedFile = Schemas["UploadedFile"];
export type GeneratedEmail = Schemas["GeneratedEmail"];

export type Business = Schemas["BusinessView"];
export type SearchAnswer = Schemas["SearchAnswer"];
export type SearchLog = Schemas["SearchLog"];
export type ImportReport = Schemas["ImportReport"];
export type SocialLookup = Schemas["SocialLookup"];
export type Icebreaker = Schemas["IcebreakerView"];

export type EmailConfig = Schemas["EmailConfigView"];
export type SenderSetup = Schemas["SenderSetup"];
export type ConsentNeeded = Schemas["ConsentNeeded"];
export type Verification = Schemas["Verification"];
export type DomainCheck = Schemas["Check"];
export type OutboxMessage = Schemas["OutboxMessage"];
export type Profile = Schemas["Profile"];
export type UsernameCheck = Schemas["UsernameCheck"];
export type SuggestedUsername = Schemas["SuggestedUsername"];
export type BasicAddressCreated = Schemas["BasicAddressCreated"];
export type ConsentUrl = Schemas["ConsentUrl"];

export type LaunchAnswer = Schemas["LaunchAnswer"];
export type LaunchCheck = Schemas["LaunchCheck"];
export type Finding = Schemas["Finding"];
export type CampaignProgress = Schemas["CampaignProgress"];
export type SenderProgress = Schemas["SenderProgress"];
export type SenderFigures = Schemas["SenderFigures"];
export type TestResult = Schemas["TestResult"];
export type ManagerPending = Schemas["ManagerPending"];
export type SendAllResult = Schemas["SendAllResult"];
export type SentFollowUp = Schemas["SentFollowUp"];
export type ResponseAnalytics = Schemas["ResponseAnalytics"];
export type EmailResponse = Schemas["EmailResponse"];
export type InboxThread = Schemas["InboxThread"];
export type ThreadPage = Schemas["ThreadPage"];
export type ThreadView = Schemas["ThreadView"];
export type ThreadMessage = Schemas["ThreadMessage"];
export type AnswerDraft = Schemas["AnswerDraft"];
export type QueuedAnswer = Schemas["QueuedAnswer"];
export type ProcessedResponse = Schemas["ProcessedResponse"];
export type Automation = Schemas["AutomationView"];
export type AutomationForm = Schemas["AutomationForm"];
export type AutomationAnalytics = Schemas["AutomationAnalytics"];
export type AutomationTest = Schemas["AutomationTest"];
export type AutomationTestResult = Schemas["AutomationTestResult"];
export type RunRecord = Schemas["RunRecord"];
export type RunResult = Schemas["RunResult"];

export type SentEmail = Schemas["SentEmail"];
export type SentEvent = Schemas["SentEvent"];
export type Summary = Schemas["Summary"];
export type CampaignInfo = Schemas["CampaignInfo"];
export type RecentEmail = Schemas["RecentEmail"];
export type CampaignAnalytics = Schemas["CampaignAnalytics"];
export type CampaignEmail = Schemas["CampaignEmail"];
export type CampaignDetails = Schemas["CampaignDetails"];
export type DailySeries = Schemas["DailySeries"];
export type DayPoint = Schemas["DayPoint"];

export type Contact = Schemas["Contact"];
export type ContactStats = Schemas["ContactStats"];
export type ContactHistory = Schemas["ContactHistory"];
export type Received = Schemas["Received"];
export type Note = Schemas["Note"];

export type UserStatus = Schemas["UserStatus"];
export type Granted = Schemas["Granted"];
export type InviteRow = Schemas["InviteRow"];
export type AdminUser = Schemas["AdminUser"];
export type AdminUserDetail = Schemas["AdminUserDetail"];
export type UserChanged = Schemas["UserChanged"];
export type AdminCampaign = Schemas["AdminCampaign"];
export type AdminSender = Schemas["AdminSender"];
export type AdminSearch = Schemas["AdminSearch"];
export type AuditEntry = Schemas["AuditEntry"];
export type JobRow = Schemas["JobRow"];
export type JobDetail = Schemas["JobDetail"];
export type SuppressedAddress = Schemas["SuppressedAddress"];
export type Done = Schemas["Done"];
export type SpamCheck = Schemas["SpamCheck"];
export type SpamRule = Schemas["SpamRule"];
export type VariantFigures = Schemas["VariantFigures"];
export type Variant = Schemas["Variant"];
