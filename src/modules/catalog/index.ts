import type { AppModule } from '../../kernel/module';
import { Resource, Service, ServiceResourceLink, Ticket } from './catalog.entity';
import { CompanyCatalogResolver, ResourceResolver, ServiceResolver } from './catalog.resolver';
import { catalogRoutes } from './catalog.routes';
import { ClientCatalogResolver } from './client-catalog.resolver';
import { ServiceResourceLinkResolver } from './link.resolver';
import { TicketResolver } from './ticket.resolver';

export const catalogModule: AppModule = {
  name: 'catalog',
  description: 'What can be booked: services and their settings, resources, the links between them, tickets.',
  entities: [Service, Resource, ServiceResourceLink, Ticket],
  resolvers: [
    ServiceResolver,
    ResourceResolver,
    CompanyCatalogResolver,
    TicketResolver,
    ServiceResourceLinkResolver,
    ClientCatalogResolver,
  ],
  routes: catalogRoutes,
  // reads of records and their relations (DataLoaders), nothing else
  graphqlWritten: ['services', 'service', 'resources', 'resource', 'clientServices', 'clientService', 'clientResources', 'clientResource'],
};

export { getResourceInCompany, getServiceInCompany, getTicketInService, linkedResources } from './catalog.lookup';
